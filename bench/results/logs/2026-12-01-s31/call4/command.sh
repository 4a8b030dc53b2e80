#!/usr/bin/env bash
# s31 call 4. c5 = 7f50762 (s31-quant-spread: the bf16a quantiser under PDL up to 256 tokens, spread over the
# SMs once its grid exceeds a quarter of them), c1 = b23440a (main). (a) Every GPU test at c5; memcheck and
# racecheck on the bf16a back-to-back test (M = 16, 48, 200: unbounded, one CTA an SM, two). (b) The rule
# against main's, backend blockfp8_bf16a, interleaved twice, M = 2-64 (where the old rule already used
# PDL on small weights) and 128/256. (The whole benchmark at c5 is call 5.)
set -u
rm -rf c1 c5 && tar -xJf build-carry/s31c4.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c5/dev
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
timeout 150 $N/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S; grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
for t in unit api; do timeout 30 $N/tests/blockfp8_${t}_tests > $R/${t}_tests.log 2>&1; echo "$t rc=$? $(tail -1 $R/${t}_tests.log)" >> $S; done
for tool in memcheck racecheck; do
  BLOCKFP8_TEST_TIMEOUT=100 timeout 110 compute-sanitizer --tool $tool --error-exitcode 9 $N/tests/blockfp8_gpu_tests --gtest_filter='FusedTest.BackToBack*' > $R/$tool.log 2>&1
  echo "$tool rc=$? $(tail -1 $R/$tool.log)" >> $S
done
A=""; for s in 2112,7168 576,7168 4096,7168 4608,7168 7168,2048; do A="$A --shape $s"; done
for rep in 1 2; do
  for side in c5 c1; do
    timeout 60 $side/dev/bench/blockfp8-bench $A --m 2,8,16,32,48,64,128,256 --no-cublaslt --no-floor --no-constw --no-check \
      --json $R/bf_${side}_$rep.jsonl > /dev/null 2>&1 || echo "bf16a $side rep $rep failed" >> $S
  done
done
AB_BACKEND=blockfp8_bf16a python3 tools/ab_table.py new_rule main $R/bf_c5_1.jsonl $R/bf_c5_2.jsonl $R/bf_c1_1.jsonl $R/bf_c1_2.jsonl > $R/bf16a_rule_ab.md
echo "bf16a rule ab done" >> $S
cat $S; cat $R/bf16a_rule_ab.md
gzip $R/gpu_tests.log $R/memcheck.log $R/racecheck.log 2>/dev/null
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
