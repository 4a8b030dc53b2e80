#!/usr/bin/env bash
# s20 call 2 (wip/scale-tma, the box from a 16-byte aligned k-block: swapab_scale_box_kb): call 1's
# illegal instruction (a box starting at k-block 19 of a row-major a_scale, forced t64 split 3) gone?
# GPU, unit and API tests; memcheck and synccheck of SanitizerSmoke, ForcedSwapabScalesByTma and
# ForcedSwapabConfigs; the dispatcher's choice against main's bench (567340d) interleaved twice;
# racecheck of ForcedSwapabScalesByTma last (call 1's ran out of time after 7 of its variants).
set -u
rm -rf build-dev build-dev-x && tar -xJf build-carry/dev.tar.xz
BUDGET=60 OUT=$OUT bash tools/device_suite.sh build-dev env tests > /dev/null 2>&1
R=$OUT/run
T=build-dev/tests/blockfp8_gpu_tests
for tool in memcheck synccheck; do
  BLOCKFP8_TEST_TIMEOUT=90 timeout 100 compute-sanitizer --tool $tool --error-exitcode 99 $T \
    --gtest_filter='ReliabilityTest.SanitizerSmoke:GemmTest.ForcedSwapabScalesByTma:GemmTest.ForcedSwapabConfigs' > $R/sanitizer_$tool.log 2>&1
  echo "sanitizer_$tool rc=$? $(tail -1 $R/sanitizer_$tool.log)" >> $R/summary.txt
done
SHAPES=""
for s in 7168,16384 7168,18432 7168,9216 7168,8192 7168,4608 12288,7168 24576,7168 4096,7168 2112,7168; do SHAPES="$SHAPES --shape $s"; done
t0=$SECONDS
OUT=$R timeout 150 bash tools/binary_ab.sh stma build-dev/bench/blockfp8-bench build-dev-x/main/blockfp8-bench \
  $SHAPES --m 24,32,40,48,64,96,128 --no-cublaslt > $R/ab.log 2>&1
echo "ab rc=$? $((SECONDS - t0)) s" >> $R/summary.txt
BLOCKFP8_TEST_TIMEOUT=200 timeout 210 compute-sanitizer --tool racecheck --error-exitcode 99 $T \
  --gtest_filter='GemmTest.ForcedSwapabScalesByTma' > $R/sanitizer_racecheck.log 2>&1
echo "sanitizer_racecheck rc=$? $(tail -1 $R/sanitizer_racecheck.log)" >> $R/summary.txt
cat $R/summary.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
