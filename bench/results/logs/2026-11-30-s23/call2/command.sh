#!/usr/bin/env bash
# s23 call 2 (build-dev = fe8cc31 + tokens on wgmma's M side for 64-token warpgroups; build-old = fe8cc31):
# the device suite's tests, fuzzer and pytest; memcheck, racecheck and synccheck over SanitizerSmoke
# (t64 / t128 / straddling t64 cases); outputs old .so against new at the DeepSeek set (bitwise?); the
# dispatcher's picks, new against old, interleaved, at M = 33-128 on eleven weights.
set -u
rm -rf build-dev build-old && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R
FUZZ_SECONDS=40 BUDGET=200 OUT=$OUT bash tools/device_suite.sh build-dev env tests fuzz python > /dev/null 2>&1
S=$R/summary.txt
T=build-dev/tests/blockfp8_gpu_tests
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter='ReliabilityTest.SanitizerSmoke' \
    > $R/sanitizer_$tool.log 2>&1
  echo "sanitizer $tool (SanitizerSmoke) rc=$? $(grep -m1 'ERROR SUMMARY' $R/sanitizer_$tool.log)" >> $S
done
timeout 200 python3 tools/bitwise_vs_lib.py build-old/libblockfp8.so build-dev/libblockfp8.so > $R/bitwise.log 2>&1
echo "bitwise old vs new rc=$? $(tail -1 $R/bitwise.log)" >> $S
ARGS=""
for s in 7168,16384 2112,7168 4096,7168 12288,7168 36864,7168 7168,2048 576,7168 24576,1536 6144,7168 4608,7168 7168,4608; do
  ARGS="$ARGS --shape $s"; done
OUT=$R bash tools/binary_ab.sh picks build-dev/bench/blockfp8-bench build-old/bench/blockfp8-bench $ARGS \
  --m 40,48,56,64,96,128 --no-floor --no-cublaslt > /dev/null 2>&1
echo "ab picks rc=$?" >> $S
cat $S $R/picks_ab.md; grep -v "^ok\|identical" $R/bitwise.log | head -20
for f in $R/*.log $R/*.txt $R/*.jsonl; do [ -f $f ] && [ $(stat -c %s $f) -gt 30000 ] && gzip -9 -n $f; done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
