#!/usr/bin/env bash
# Session 8, call 3 (build 0975319 against 4f8d9d4 as "old"): the tiled kernel without out-of-bounds
# boxes: tests, sanitizers, A/B against the build before it, and cluster size 4 vs 2 again.
# (Reconstructed from the session's record; the staged copy was replaced.)
R=$OUT/r; mkdir -p $R; V=build-dev; B=$V/bench/blockfp8-bench; T=$V/tests/blockfp8_gpu_tests
( timeout 200 $T > $R/tests_main.log 2>&1; echo "main rc=$?" >> $R/summary.txt ) &
( BLOCKFP8_TILED_CTA_N=4 BLOCKFP8_TILED_N_MTILES=4 timeout 200 $T --gtest_filter='Tiled*:Reliability*' > $R/tests_n4.log 2>&1; echo "n4 rc=$?" >> $R/summary.txt ) &
( BLOCKFP8_TILED_MULTICAST=0 timeout 200 $T --gtest_filter='Tiled*:Reliability*' > $R/tests_nomc.log 2>&1; echo "nomc rc=$?" >> $R/summary.txt ) &
for tool in racecheck memcheck; do
( BLOCKFP8_TEST_TIMEOUT=190 timeout 280 compute-sanitizer --tool $tool --error-exitcode 99 $T --gtest_filter='ReliabilityTest.SanitizerSmoke:TiledTest.OneTokenTileClustersAlongN' > $R/${tool}.log 2>&1; echo "$tool rc=$?" >> $R/summary.txt ) &
done
wait
S="--shape 7168,16384 --shape 9216,7168 --shape 24576,1536 --shape 32768,512 --shape 2112,7168 --shape 576,7168 --no-cublaslt --no-floor"
OUT=$R bash tools/binary_ab.sh edges $B $V/prev/blockfp8-bench $S --m 65,96,128,200,384,512
OUT=$R/cn AB_VALUES="4 2" bash tools/env_ab.sh $V BLOCKFP8_TILED_CTA_N --shape 7168,16384 --shape 9216,7168 --shape 24576,1536 --shape 36864,7168 --no-cublaslt --no-floor --m 65,96,128
