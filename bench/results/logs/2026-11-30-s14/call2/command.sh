#!/usr/bin/env bash
# s14 call 2: (a) every forced decode path, and the warp-MMA kernel split over clusters, on the
# short-K and few-tile shapes at M = 1 and 8 (is the dispatcher leaving time on the table there?);
# (b) wip/tiled-split-push (rebased on a19b79b as wip/tiled-split-push-s14): its tiled GPU tests, split
# tests under memcheck and racecheck, then interleaved against main at M = 65-512.
set -u
R=/tmp/r2; rm -rf $R; mkdir -p $R
B=build-dev
W="--config warpmma_r16_t8_s1_w2_k4 --config warpmma_r16_t8_s2_w2_k4 --config warpmma_r16_t8_s3_w2_k4 --config warpmma_r16_t8_s4_w2_k4 --config warpmma_r32_t8_s1_w2_k2 --config warpmma_r32_t8_s2_w2_k2 --config warpmma_r32_t8_s3_w2_k2"
timeout 200 $B/bench/blockfp8-bench --paths $W --shape 576,7168 --shape 32768,512 --shape 24576,1536 --shape 7168,2048 --shape 7168,1024 --shape 4608,7168 --m 1,8 --no-cublaslt --no-bf16a --no-constw --no-check --json $R/paths.jsonl > $R/paths.log 2>&1; echo "paths rc=$?"
timeout 100 $B/push/blockfp8_gpu_tests --gtest_filter='TiledTest.*' > $R/push_tiled.log 2>&1; echo "push tiled rc=$?"; tail -2 $R/push_tiled.log
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $B/push/blockfp8_gpu_tests --gtest_filter='TiledTest.SplitK*' > $R/push_memcheck.log 2>&1; echo "push memcheck rc=$?"; tail -1 $R/push_memcheck.log
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 $B/push/blockfp8_gpu_tests --gtest_filter='TiledTest.SplitK*' > $R/push_racecheck.log 2>&1; echo "push racecheck rc=$?"; tail -1 $R/push_racecheck.log
OUT=$R bash tools/binary_ab.sh push $B/push/blockfp8-bench $B/bench/blockfp8-bench --shape 2112,7168 --shape 3072,7168 --shape 4096,7168 --shape 1536,7168 --m 65,96,128,192,256,384,512 --no-cublaslt --no-floor > /dev/null
tail -40 $R/push_ab.md
tar czf $OUT/r2.tgz -C /tmp r2
