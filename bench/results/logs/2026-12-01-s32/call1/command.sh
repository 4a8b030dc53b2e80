#!/usr/bin/env bash
# s32 call 1. #5's audit at M = 256 and 512 on the 31 shapes: the dispatcher against every forced path
# (the thirty-first session's call 6, whose output was lost with that session), bench at 7cda608,
# one round, settle 20 ms.
set -u
rm -rf c1 && tar -xJf build-carry/s32c1.tar.xz
R=$OUT/run; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
export BLOCKFP8_COMMIT=$(cat c1/COMMIT) BLOCKFP8_BENCH_TIMEOUT=60
timeout 540 c1/blockfp8-bench --paths --m 256,512 --settle-ms 20 --no-cublaslt --no-bf16a --no-constw --no-check \
  --json $R/paths.jsonl > $R/paths.log 2>&1; echo "paths rc=$?"
wc -l $R/paths.jsonl; tail -3 $R/paths.log
gzip $R/paths.log
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
