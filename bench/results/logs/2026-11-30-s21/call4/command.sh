#!/usr/bin/env bash
# s21 call 4 (build-dev/COMMIT): const weights stream early at token tiles <= 32 only. GPU tests;
# blockfp8 against blockfp8_constw on seven weights at M = 8-64, two runs.
set -u
rm -rf build-dev build-dev-x && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
BLOCKFP8_TEST_TIMEOUT=30 timeout 60 build-dev/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | head -3 | tr '\n' ' ')" >> $S
SHAPES=""
for s in 2112,7168 7168,9216 7168,8192 4096,7168 12288,1536 6144,7168 7168,2048; do SHAPES="$SHAPES --shape $s"; done
for rep in 1 2; do
  timeout 120 build-dev/bench/blockfp8-bench $SHAPES --m 8,16,32,64 --constw --no-cublaslt --no-bf16a \
    --commit $(cat build-dev/COMMIT) --json $R/constw_$rep.jsonl > $R/bench_$rep.log 2>&1
  echo "bench $rep rc=$?" >> $S
done
cat $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
