#!/usr/bin/env bash
# Session 8, call 4: the tiled edge fix re-timed (Params unchanged), the pushed split-K sum (st.async)
# against main, and forced paths for the tiled/decode crossover at one token tile.
R=$OUT/r; mkdir -p $R; V=build-dev; B=$V/bench/blockfp8-bench; T=$V/tests/blockfp8_gpu_tests
( timeout 200 $T > $R/tests_main.log 2>&1; echo "main rc=$?" >> $R/summary.txt ) &
( BLOCKFP8_TILED_CTA_N=4 BLOCKFP8_TILED_N_MTILES=4 timeout 200 $T --gtest_filter='Tiled*:Reliability*' > $R/tests_n4.log 2>&1; echo "n4 rc=$?" >> $R/summary.txt ) &
( timeout 200 $V/push/blockfp8_gpu_tests > $R/tests_push.log 2>&1; echo "push rc=$?" >> $R/summary.txt ) &
for tool in racecheck synccheck memcheck; do
( BLOCKFP8_TEST_TIMEOUT=190 timeout 280 compute-sanitizer --tool $tool --error-exitcode 99 $V/push/blockfp8_gpu_tests --gtest_filter='ReliabilityTest.SanitizerSmoke:FusedTest.SanitizerSmoke:ReliabilityTest.Determinism' > $R/push_${tool}.log 2>&1; echo "push $tool rc=$?" >> $R/summary.txt ) &
done
wait
S="--shape 7168,16384 --shape 9216,7168 --shape 24576,1536 --shape 32768,512 --shape 2112,7168 --no-cublaslt --no-floor"
OUT=$R bash tools/binary_ab.sh edges $B $V/prev/blockfp8-bench $S --m 65,96,128,200,384,512 >/dev/null 2>&1
D="--shape 2112,7168 --shape 576,7168 --shape 7168,2048 --shape 4608,7168 --shape 16384,512 --m 1,4,16,32,64,128 --no-cublaslt"
OUT=$R bash tools/binary_ab.sh push $V/push/blockfp8-bench $B $D >/dev/null 2>&1
OUT=$R/pp AB_PATHS=1 bash tools/binary_ab.sh pushpaths $V/push/blockfp8-bench $B --shape 2112,7168 --m 1,32 --paths --no-cublaslt >/dev/null 2>&1
timeout 200 $B --shape 4608,7168 --shape 9216,7168 --shape 7168,16384 --shape 36864,7168 --shape 12288,7168 --shape 4096,7168 --shape 7168,2048 --shape 24576,1536 --shape 16384,512 --shape 3072,7168 --m 64,96,128 --paths --no-bf16a --no-constw --json $R/paths.jsonl > $R/paths.txt 2>&1
cat $R/summary.txt; grep -h -E "PASSED|FAILED|tests ran|ERROR SUMMARY|RACECHECK SUMMARY" $R/*.log; cat $R/*_ab.md
sort -t'|' -k7 -n $R/pp/*_ab.md | head -12
tar -C $OUT -czf $OUT/all.tgz r; rm -rf $R
