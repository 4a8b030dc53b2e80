#!/usr/bin/env bash
# s19 call 8: tail token boxes on one-k-block stages only (build-dev/COMMIT): GPU, unit and API tests,
# memcheck and synccheck of the sanitizer set (racecheck ran clean in call 7; no synchronisation
# changed since), and the dispatcher's choice against c5f3caf, interleaved twice, at M = 33-128.
set -u
rm -rf build-dev build-dev-x && tar -xJf build-carry/dev.tar.xz
BUDGET=120 OUT=$OUT bash tools/device_suite.sh build-dev env tests > /dev/null 2>&1
R=$OUT/run
for tool in memcheck synccheck; do
  BLOCKFP8_TEST_TIMEOUT=190 timeout 100 compute-sanitizer --tool $tool --error-exitcode 99 build-dev/tests/blockfp8_gpu_tests \
    --gtest_filter='ReliabilityTest.SanitizerSmoke:GemmTest.ForcedSwapabConfigs' > $R/sanitizer_$tool.log 2>&1
  echo "sanitizer_$tool rc=$? $(tail -1 $R/sanitizer_$tool.log)" >> $R/summary.txt
done
SHAPES=""
for s in 2112,7168 1536,7168 576,7168 4096,7168 7168,16384 6144,1536 3072,1536 4096,512 7168,2048; do SHAPES="$SHAPES --shape $s"; done
OUT=$R timeout 250 bash tools/binary_ab.sh tailbox build-dev/bench/blockfp8-bench build-dev-x/main/blockfp8-bench \
  $SHAPES --m 33,40,48,56,63,64,96,100,120,128 --no-cublaslt > $R/ab.log 2>&1
cat $R/summary.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
