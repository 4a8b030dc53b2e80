#!/usr/bin/env bash
# s20 call 6 (wip/one-tile-ring): where every CTA has one tile, one scale buffer and a deeper ring.
# GPU tests; memcheck of SanitizerSmoke, ForcedSwapabScalesByTma and ForcedSwapabConfigs; the
# dispatcher's choice against main (b7802b0) interleaved twice.
set -u
rm -rf build-dev build-dev-x && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R
T=build-dev/tests/blockfp8_gpu_tests
BLOCKFP8_TEST_TIMEOUT=30 timeout 90 $T > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $R/summary.txt
BLOCKFP8_TEST_TIMEOUT=90 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 99 $T \
  --gtest_filter='ReliabilityTest.SanitizerSmoke:GemmTest.ForcedSwapabScalesByTma:GemmTest.ForcedSwapabConfigs' > $R/sanitizer_memcheck.log 2>&1
echo "sanitizer_memcheck rc=$? $(tail -1 $R/sanitizer_memcheck.log)" >> $R/summary.txt
SHAPES=""
for s in 7168,16384 7168,18432 7168,9216 7168,8192 12288,7168 36864,7168 4096,7168 2112,7168; do SHAPES="$SHAPES --shape $s"; done
t0=$SECONDS
OUT=$R timeout 150 bash tools/binary_ab.sh ring build-dev/bench/blockfp8-bench build-dev-x/main/blockfp8-bench \
  $SHAPES --m 1,8,16,32,48,64 --no-cublaslt > $R/ab.log 2>&1
echo "ab rc=$? $((SECONDS - t0)) s" >> $R/summary.txt
cat $R/summary.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
