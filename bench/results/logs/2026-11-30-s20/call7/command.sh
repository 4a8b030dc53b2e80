#!/usr/bin/env bash
# s20 call 7 (wip/early-release): a stage's slot goes back to the producer once its wgmma are done,
# before the warpgroup waits for its next stage. GPU tests; synccheck of SanitizerSmoke and
# ForcedSwapabConfigs; the dispatcher's choice against main (b7802b0) interleaved twice.
set -u
rm -rf build-dev build-dev-x && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R
T=build-dev/tests/blockfp8_gpu_tests
BLOCKFP8_TEST_TIMEOUT=30 timeout 60 $T > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $R/summary.txt
BLOCKFP8_TEST_TIMEOUT=40 timeout 45 compute-sanitizer --tool synccheck --error-exitcode 99 $T \
  --gtest_filter='ReliabilityTest.SanitizerSmoke:GemmTest.ForcedSwapabConfigs' > $R/sanitizer_synccheck.log 2>&1
echo "sanitizer_synccheck rc=$? $(tail -1 $R/sanitizer_synccheck.log)" >> $R/summary.txt
SHAPES=""
for s in 7168,16384 7168,9216 12288,7168 36864,7168 4096,7168 2112,7168 576,7168; do SHAPES="$SHAPES --shape $s"; done
t0=$SECONDS
OUT=$R timeout 100 bash tools/binary_ab.sh early build-dev/bench/blockfp8-bench build-dev-x/main/blockfp8-bench \
  $SHAPES --m 1,8,16,32,64 --no-cublaslt > $R/ab.log 2>&1
echo "ab rc=$? $((SECONDS - t0)) s" >> $R/summary.txt
cat $R/summary.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
