#!/usr/bin/env bash
# s18 call 2: call 1's sweep again (its files did not come back: too many), packed in one archive.
set -u
R=$OUT/run; mkdir -p $R
B=build-dev/bench/blockfp8-bench
for rep in 1 2; do
  for v in -1 0 2 4 6 8 11; do
    BLOCKFP8_DECODE_LEAD=$v timeout 60 $B --shape 2112,7168 --m 12,16,24,32,48,64 --no-cublaslt --no-bf16a --no-check --json $R/lead${v}_$rep.jsonl > /dev/null 2>&1 || echo "lead $v rep $rep failed" >> $R/summary.txt
  done
  timeout 60 build-dev-x/main/blockfp8-bench --shape 2112,7168 --m 12,16,24,32,48,64 --no-cublaslt --no-bf16a --no-check --json $R/main_$rep.jsonl > /dev/null 2>&1
done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
