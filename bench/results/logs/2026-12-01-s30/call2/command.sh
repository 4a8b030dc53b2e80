#!/usr/bin/env bash
# s30 call 2. The dispatcher against every forced path (#5: "over the whole M sweep, the dispatcher's
# choice is within 5 % of the best blockfp8 kernel measured at that point"), bench at 67a858e, the 31
# DeepSeek shapes, decode M = 1-128 first (36-72 forced decode configurations a point, and 6 tiled
# widths from M = 64). One round: candidates go to a shuffled-rounds check next.
set -u
rm -rf b2 && tar -xJf build-carry/s30c2.tar.xz
R=$OUT/run; mkdir -p $R
export BLOCKFP8_COMMIT=67a858e BLOCKFP8_BENCH_TIMEOUT=60
timeout 560 b2/bench/blockfp8-bench --paths --m 1,4,16,32,64,128 --no-cublaslt --no-bf16a --no-constw --no-check \
  --json $R/paths.jsonl > $R/paths.log 2>&1; echo "paths rc=$?"
wc -l $R/paths.jsonl; tail -3 $R/paths.log
gzip $R/paths.log
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
