#!/usr/bin/env bash
# s20 call 4 (wip/scale-box-far): the a_scale box in the next tile's scale buffer where the reduction
# buffers are too small (7168x18432 unsplit). GPU tests; memcheck and synccheck of SanitizerSmoke and
# ForcedSwapabScalesByTma; the dispatcher's choice against main (5c0e2d8) interleaved twice.
set -u
rm -rf build-dev build-dev-x && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R
T=build-dev/tests/blockfp8_gpu_tests
BLOCKFP8_TEST_TIMEOUT=30 timeout 90 $T > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $R/summary.txt
for tool in memcheck synccheck; do
  BLOCKFP8_TEST_TIMEOUT=90 timeout 100 compute-sanitizer --tool $tool --error-exitcode 99 $T \
    --gtest_filter='ReliabilityTest.SanitizerSmoke:GemmTest.ForcedSwapabScalesByTma' > $R/sanitizer_$tool.log 2>&1
  echo "sanitizer_$tool rc=$? $(tail -1 $R/sanitizer_$tool.log)" >> $R/summary.txt
done
SHAPES=""
for s in 7168,18432 7168,16384 7168,9216 12288,7168 2112,7168; do SHAPES="$SHAPES --shape $s"; done
t0=$SECONDS
OUT=$R timeout 150 bash tools/binary_ab.sh far build-dev/bench/blockfp8-bench build-dev-x/m5c/blockfp8-bench \
  $SHAPES --m 24,32,40,48,64,96,128 --no-cublaslt > $R/ab.log 2>&1
echo "ab rc=$? $((SECONDS - t0)) s" >> $R/summary.txt
cat $R/summary.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
