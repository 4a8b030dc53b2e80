#!/usr/bin/env bash
# s19 call 14 (wip/scale-halves): the first tile's scales at 32+ tokens by cp.async in two groups (the
# first 8 k-blocks, then the rest), the loop starting after the first (ScaleGate). GPU tests of the
# decode kernel, memcheck and synccheck of SanitizerSmoke and ForcedSwapabConfigs, then the
# dispatcher's choice against the tail-box build (973dec4, SASS as main's 9c5bba8), interleaved twice.
set -u
rm -rf build-dev build-dev-x && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R
T=build-dev/tests/blockfp8_gpu_tests
F='GemmTest.*:ReliabilityTest.SanitizerSmoke:ReliabilityTest.Determinism:ReliabilityTest.BatchInvariantMode:ReliabilityTest.OwnersSumIsBitwiseThePulledSum:FusedTest.DecodeShapesBitwiseMatchQuantizeThenGemm'
BLOCKFP8_TEST_TIMEOUT=30 timeout 60 $T --gtest_filter="$F" > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $R/summary.txt
for tool in memcheck synccheck; do
  BLOCKFP8_TEST_TIMEOUT=60 timeout 40 compute-sanitizer --tool $tool --error-exitcode 99 $T \
    --gtest_filter='ReliabilityTest.SanitizerSmoke:GemmTest.ForcedSwapabConfigs' > $R/sanitizer_$tool.log 2>&1
  echo "sanitizer_$tool rc=$? $(tail -1 $R/sanitizer_$tool.log)" >> $R/summary.txt
done
SHAPES=""
for s in 7168,16384 7168,18432 7168,9216 12288,7168 24576,7168 4096,7168 2112,7168; do SHAPES="$SHAPES --shape $s"; done
OUT=$R timeout 100 bash tools/binary_ab.sh halves build-dev/bench/blockfp8-bench build-dev-x/tail/blockfp8-bench \
  $SHAPES --m 24,32,48,64 --no-cublaslt > $R/ab.log 2>&1
cat $R/summary.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
