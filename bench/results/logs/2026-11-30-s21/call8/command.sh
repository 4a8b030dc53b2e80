#!/usr/bin/env bash
# s21 call 8 (20bfa3e + the promotion's scale pairs by one 8-byte load): GPU tests; outputs bitwise
# against 20bfa3e's library on the DeepSeek set; interleaved A/B against 20bfa3e's bench at M = 8-64.
set -u
rm -rf build-dev build-dev-x && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
BLOCKFP8_TEST_TIMEOUT=30 timeout 60 build-dev/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | head -3 | tr '\n' ' ')" >> $S
t0=$SECONDS; timeout 90 python3 tools/bitwise_vs_lib.py build-dev-x/old/libblockfp8.so build-dev/libblockfp8.so > $R/bitwise.log 2>&1
echo "bitwise rc=$? $((SECONDS - t0)) s: $(tail -1 $R/bitwise.log)" >> $S
SHAPES=""
for s in 7168,16384 7168,9216 12288,7168 36864,7168 4096,7168 2112,7168 576,7168 24576,1536; do SHAPES="$SHAPES --shape $s"; done
t0=$SECONDS; OUT=$R timeout 150 bash tools/binary_ab.sh pairs build-dev/bench/blockfp8-bench build-dev-x/old/blockfp8-bench \
  $SHAPES --m 8,16,32,48,64 --no-cublaslt > $R/ab.log 2>&1; echo "ab rc=$? $((SECONDS - t0)) s" >> $S
cat $S; cat $R/pairs_ab.md
gzip -9 -n $R/*.jsonl $R/gpu_tests.log
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
