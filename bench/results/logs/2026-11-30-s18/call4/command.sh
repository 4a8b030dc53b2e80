#!/usr/bin/env bash
# s18 call 4: the owner's sum at token tiles of 8 and 16 as the default (lead 0). GPU, unit and API
# tests; memcheck and racecheck of its test and of the fused decode tests; the fuzzer; an interleaved
# A/B against the pulled sum (BLOCKFP8_DECODE_LEAD=-1) on the shapes where it applies.
set -u
R=$OUT/run; mkdir -p $R
B=build-dev/bench/blockfp8-bench
T=build-dev/tests/blockfp8_gpu_tests
BUDGET=120 OUT=$OUT bash tools/device_suite.sh build-dev env tests > /dev/null 2>&1
BLOCKFP8_TEST_TIMEOUT=100 timeout 110 compute-sanitizer --tool memcheck --error-exitcode 99 $T --gtest_filter='ReliabilityTest.OwnersSumIsBitwiseThePulledSum:FusedTest.EveryMUpTo32OnThePrimaryShape:FusedTest.DecodeShapesBitwiseMatchQuantizeThenGemm' > $R/memcheck_owner.log 2>&1; echo "memcheck owner rc=$? $(tail -n 1 $R/memcheck_owner.log)" >> $R/summary.txt
BLOCKFP8_TEST_TIMEOUT=140 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 99 $T --gtest_filter='ReliabilityTest.OwnersSumIsBitwiseThePulledSum' > $R/racecheck_owner.log 2>&1; echo "racecheck owner rc=$? $(tail -n 1 $R/racecheck_owner.log)" >> $R/summary.txt
timeout 40 build-dev/tests/blockfp8_fuzz --cases 2000 --max-seconds 30 > $R/fuzz.log 2>&1; echo "fuzz rc=$? $(tail -n 1 $R/fuzz.log)" >> $R/summary.txt
SH="--shape 2112,7168 --shape 4096,7168 --shape 4608,7168 --shape 6144,7168 --shape 3072,1536 --shape 576,7168 --m 1,4,8,9,12,16"
for rep in 1 2; do
  for v in 0 -1; do
    BLOCKFP8_DECODE_LEAD=$v timeout 60 $B $SH --no-cublaslt --no-bf16a --no-check --json $R/ab_lead${v}_$rep.jsonl > /dev/null 2>&1 || echo "ab $v $rep failed" >> $R/summary.txt
  done
done
python3 tools/ab_table.py "owner" "pulled" $R/ab_lead0_1.jsonl $R/ab_lead0_2.jsonl $R/ab_lead-1_1.jsonl $R/ab_lead-1_2.jsonl > $R/owner_ab.md 2>&1
timeout 60 $B $SH --no-cublaslt --json $R/checked.jsonl > $R/checked.log 2>&1; echo "checked rc=$?" >> $R/summary.txt
cat $R/summary.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
