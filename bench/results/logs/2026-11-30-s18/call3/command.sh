#!/usr/bin/env bash
# s18 call 3: the owner's sum on every DeepSeek shape at M = 1-32: BLOCKFP8_DECODE_LEAD = -1 (pulled
# sum), 0 and 2, interleaved, two rounds; and the batch-invariant test with it on.
set -u
R=$OUT/run; mkdir -p $R
B=build-dev/bench/blockfp8-bench
BLOCKFP8_DECODE_LEAD=2 timeout 60 build-dev/tests/blockfp8_gpu_tests --gtest_filter='ReliabilityTest.*:GemmTest.ForcedSwapabConfigs' > $R/gpu_lead2.log 2>&1; echo "gpu lead2 rc=$? $(tail -n 1 $R/gpu_lead2.log)" >> $R/summary.txt
for rep in 1 2; do
  for v in -1 0 2; do
    BLOCKFP8_DECODE_LEAD=$v timeout 150 $B --m 1,4,8,12,16,24,32 --no-cublaslt --no-bf16a --no-check --json $R/lead${v}_$rep.jsonl > /dev/null 2>&1 || echo "lead $v rep $rep failed" >> $R/summary.txt
  done
done
cat $R/summary.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
