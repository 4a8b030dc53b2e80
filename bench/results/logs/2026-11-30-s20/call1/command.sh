#!/usr/bin/env bash
# s20 call 1 (wip/scale-tma rebased on ea7c29a): the first tile's a_scales at 32+ tokens by one TMA box.
# GPU tests of the decode kernel with the new ForcedSwapabScalesByTma; memcheck, synccheck, racecheck
# of it and SanitizerSmoke; the dispatcher's choice against main's bench (567340d, decode SASS as ea7c29a)
# interleaved twice; timelines of 7168x16384 at M = 32 and 64 with the box on and off.
set -u
rm -rf build-dev build-dev-x && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R
T=build-dev/tests/blockfp8_gpu_tests
F='GemmTest.*:ReliabilityTest.SanitizerSmoke:ReliabilityTest.Determinism:ReliabilityTest.BatchInvariantMode:ReliabilityTest.OwnersSumIsBitwiseThePulledSum:FusedTest.DecodeShapesBitwiseMatchQuantizeThenGemm'
BLOCKFP8_TEST_TIMEOUT=30 timeout 90 $T --gtest_filter="$F" > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $R/summary.txt
for tool in memcheck synccheck racecheck; do
  BLOCKFP8_TEST_TIMEOUT=120 timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 $T \
    --gtest_filter='ReliabilityTest.SanitizerSmoke:GemmTest.ForcedSwapabScalesByTma' > $R/sanitizer_$tool.log 2>&1
  echo "sanitizer_$tool rc=$? $(tail -1 $R/sanitizer_$tool.log)" >> $R/summary.txt
done
for on in 1 0; do for m in 32 64; do
  BLOCKFP8_DECODE_SCALES_TMA=$on BLOCKFP8_PDL=0 timeout 30 build-dev/bench/decode_timeline 7168 16384 $m > $R/tl_tma${on}_m$m.txt 2>&1
done; done
SHAPES=""
for s in 7168,16384 7168,9216 7168,8192 12288,7168 24576,7168 4096,7168 2112,7168; do SHAPES="$SHAPES --shape $s"; done
OUT=$R timeout 150 bash tools/binary_ab.sh stma build-dev/bench/blockfp8-bench build-dev-x/main/blockfp8-bench \
  $SHAPES --m 24,32,40,48,64 --no-cublaslt > $R/ab.log 2>&1
cat $R/summary.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
