#!/usr/bin/env bash
# s18 call 1: the owner's sum (BLOCKFP8_DECODE_LEAD = k-blocks rank 0 takes beyond an even share).
# GPU tests with it forced on and off, memcheck and racecheck of the decode tests with it on, a checked
# bench of the primary shape with it on, then a sweep of the lead on 2112x7168 at M = 16, 32
# (interleaved, two rounds), and the main build's bench as control.
set -u
R=$OUT/run; mkdir -p $R
B=build-dev/bench/blockfp8-bench
T=build-dev/tests/blockfp8_gpu_tests
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv > $R/env.log 2>&1
BLOCKFP8_DECODE_LEAD=4 timeout 90 $T > $R/gpu_lead4.log 2>&1; echo "gpu lead4 rc=$? $(tail -n 1 $R/gpu_lead4.log)" >> $R/summary.txt
BLOCKFP8_DECODE_LEAD=0 timeout 90 $T --gtest_filter='GemmTest.*:FusedTest.*' > $R/gpu_lead0.log 2>&1; echo "gpu lead0 rc=$? $(tail -n 1 $R/gpu_lead0.log)" >> $R/summary.txt
timeout 90 $T > $R/gpu_off.log 2>&1; echo "gpu off rc=$? $(tail -n 1 $R/gpu_off.log)" >> $R/summary.txt
BLOCKFP8_DECODE_LEAD=4 BLOCKFP8_TEST_TIMEOUT=50 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 99 $T --gtest_filter='GemmTest.DispatcherShapes:FusedTest.EveryMUpTo32OnThePrimaryShape:GemmTest.ForcedSwapabConfigs' > $R/memcheck_lead4.log 2>&1; echo "memcheck lead4 rc=$? $(tail -n 1 $R/memcheck_lead4.log)" >> $R/summary.txt
BLOCKFP8_DECODE_LEAD=4 BLOCKFP8_TEST_TIMEOUT=50 timeout 60 compute-sanitizer --tool racecheck --error-exitcode 99 $T --gtest_filter='FusedTest.EveryMUpTo32OnThePrimaryShape' > $R/racecheck_lead4.log 2>&1; echo "racecheck lead4 rc=$? $(tail -n 1 $R/racecheck_lead4.log)" >> $R/summary.txt
BLOCKFP8_DECODE_LEAD=4 timeout 60 $B --shape 2112,7168 --shape 4096,7168 --shape 3072,1536 --m 9,16,24,32,48,64 --no-cublaslt --json $R/checked_lead4.jsonl > $R/checked_lead4.log 2>&1; echo "checked lead4 rc=$?" >> $R/summary.txt
for rep in 1 2; do
  for v in -1 0 2 4 6 8 11; do
    BLOCKFP8_DECODE_LEAD=$v timeout 60 $B --shape 2112,7168 --m 12,16,24,32,48,64 --no-cublaslt --no-bf16a --no-check --json $R/lead${v}_$rep.jsonl > /dev/null 2>&1 || echo "lead $v rep $rep failed" >> $R/summary.txt
  done
  timeout 60 build-dev-x/main/blockfp8-bench --shape 2112,7168 --m 12,16,24,32,48,64 --no-cublaslt --no-bf16a --no-check --json $R/main_$rep.jsonl > /dev/null 2>&1
done
cat $R/summary.txt
