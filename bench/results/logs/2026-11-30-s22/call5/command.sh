#!/usr/bin/env bash
# s22 call 5 (build-dev/COMMIT = 05fb60a; build-old/bench = main's 8590780 bench): the device suite's
# tests, fuzzer and pytest; memcheck and synccheck over the new straddling-tile tests; the dispatcher's
# picks at 05fb60a against 8590780's on the 16 shapes whose plans changed (M = 8, 16, 32), interleaved.
set -u
rm -rf build-dev build-old && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R
FUZZ_SECONDS=40 BUDGET=170 OUT=$OUT bash tools/device_suite.sh build-dev env tests fuzz python > /dev/null 2>&1
S=$R/summary.txt
T=build-dev/tests/blockfp8_gpu_tests
for tool in memcheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 $T \
    --gtest_filter='ReliabilityTest.StraddlingTilesAreBitwiseTheAlignedOnes:ReliabilityTest.SanitizerSmoke' \
    > $R/sanitizer_$tool.log 2>&1
  echo "sanitizer $tool (straddling tests) rc=$? $(grep -m1 'ERROR SUMMARY' $R/sanitizer_$tool.log)" >> $S
done
ARGS=""
for s in 24576,1536 7168,16384 36864,7168 7168,18432 24576,7168 12288,7168 4608,7168 12288,1536 7168,8192 \
         18432,7168 7168,9216 6144,7168 7168,4096 9216,7168 7168,4608 3072,7168; do ARGS="$ARGS --shape $s"; done
OUT=$R bash tools/binary_ab.sh picks build-dev/bench/blockfp8-bench build-old/bench/blockfp8-bench $ARGS \
  --m 8,16,32 --no-floor --no-cublaslt > /dev/null 2>&1
echo "ab picks rc=$?" >> $S
cat $S $R/picks_ab.md
for f in $R/*.log $R/*.txt $R/*.jsonl; do [ -f $f ] && [ $(stat -c %s $f) -gt 30000 ] && gzip -9 -n $f; done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
