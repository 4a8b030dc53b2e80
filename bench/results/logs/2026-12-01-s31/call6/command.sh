#!/usr/bin/env bash
# s31 call 6. #5's audit, continued: the dispatcher against every forced path at M = 256 and 512 on the 31
# shapes (s30 call 2 covered M = 1-128 on the first 11), bench at 7cda608, one round, settle 20 ms.
set -u
rm -rf c6 && tar -xJf build-carry/s31c6.tar.xz
R=$OUT/run; mkdir -p $R
export BLOCKFP8_COMMIT=$(cat c6/COMMIT) BLOCKFP8_BENCH_TIMEOUT=60
timeout 520 c6/blockfp8-bench --paths --m 256,512 --settle-ms 20 --no-cublaslt --no-bf16a --no-constw --no-check \
  --json $R/paths.jsonl > $R/paths.log 2>&1; echo "paths rc=$?"
wc -l $R/paths.jsonl; tail -3 $R/paths.log
gzip $R/paths.log
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
