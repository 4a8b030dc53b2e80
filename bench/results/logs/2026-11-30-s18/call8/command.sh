#!/usr/bin/env bash
# s18 call 8: the tiled split-K sum with the ranks read in rotated order (wip/tiled-split-rotated)
# against main (51e6901), interleaved, at M = 96-256 where the dispatcher splits K; the variant's
# tiled GPU tests and a checked bench of it.
set -u
R=$OUT/run; mkdir -p $R
timeout 60 build-dev-x/rotated/blockfp8_gpu_tests --gtest_filter='TiledTest.*' > $R/gpu_tiled.log 2>&1; echo "gpu tiled rc=$? $(tail -n 1 $R/gpu_tiled.log)" >> $R/summary.txt
SH="--shape 2112,7168 --shape 4096,7168 --shape 3072,7168 --shape 1536,7168 --shape 7168,16384 --shape 7168,2048 --m 96,128,192,256 --no-cublaslt --no-floor"
OUT=$R bash tools/binary_ab.sh rotated build-dev-x/rotated/blockfp8-bench build-dev-x/main/blockfp8-bench $SH > $R/ab.log 2>&1
timeout 120 build-dev-x/rotated/blockfp8-bench $SH --no-bf16a --json $R/checked.jsonl > $R/checked.log 2>&1; echo "checked rc=$?" >> $R/summary.txt
cat $R/summary.txt $R/rotated_ab.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
