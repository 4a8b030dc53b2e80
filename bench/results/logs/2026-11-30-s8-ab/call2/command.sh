#!/usr/bin/env bash
# Session 8, call 2 (build 4f8d9d4): tests of the clusters-along-N tiled kernel (default 2, and 4 /
# several token tiles), racecheck, then A/Bs of cluster size and of the token-tile limit, and forced
# paths at mid M. (Reconstructed from the session's record; the staged copy was replaced.)
R=$OUT/r; mkdir -p $R; V=build-dev; B=$V/bench/blockfp8-bench; T=$V/tests/blockfp8_gpu_tests
( timeout 200 $T > $R/tests_main.log 2>&1; echo "main rc=$?" >> $R/summary.txt ) &
( BLOCKFP8_TILED_CTA_N=4 BLOCKFP8_TILED_N_MTILES=4 timeout 200 $T --gtest_filter='Tiled*:Reliability*' > $R/tests_n4.log 2>&1; echo "n4 rc=$?" >> $R/summary.txt ) &
( BLOCKFP8_TEST_TIMEOUT=190 BLOCKFP8_TILED_CTA_N=4 timeout 250 compute-sanitizer --tool racecheck --error-exitcode 99 $T --gtest_filter='ReliabilityTest.SanitizerSmoke' > $R/racecheck_n4.log 2>&1; echo "racecheck n4 rc=$?" >> $R/summary.txt ) &
( BLOCKFP8_TEST_TIMEOUT=190 timeout 250 compute-sanitizer --tool racecheck --error-exitcode 99 $T --gtest_filter='ReliabilityTest.SanitizerSmoke:TiledTest.OneTokenTileClustersAlongN' > $R/racecheck_n2.log 2>&1; echo "racecheck n2 rc=$?" >> $R/summary.txt ) &
wait
S="--shape 9216,7168 --shape 7168,16384 --shape 36864,7168 --shape 24576,1536 --shape 32768,512 --no-cublaslt --no-floor"
OUT=$R/cn AB_VALUES="4 2" bash tools/env_ab.sh $V BLOCKFP8_TILED_CTA_N $S --m 65,96,128
OUT=$R/mt AB_VALUES="4 1" bash tools/env_ab.sh $V BLOCKFP8_TILED_N_MTILES $S --m 256,384,512
timeout 150 $B --shape 7168,16384 --shape 9216,7168 --shape 36864,7168 --shape 4608,7168 --shape 2112,7168 --m 64,128 --paths --no-cublaslt --no-bf16a --no-constw --json $R/paths.jsonl
