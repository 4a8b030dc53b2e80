#!/usr/bin/env bash
# s28 call 15. build-pbi = wip/parallel-barrier-init (4034a76 + the TMA decode kernel's mbarriers initialised a
# stage a lane of warp 0, each initialising thread fencing its own): the clusters that launch late in
# back-to-back calls pay the prologue on the critical path (calls 12-13). build-main-fin = 4034a76. GPU tests,
# memcheck and synccheck on the sanitizer smokes (pbi), then the dispatcher's backend interleaved twice.
set -u
rm -rf build-pbi build-main-fin && tar -xJf build-carry/s28c15.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
timeout 100 build-pbi/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
F='ReliabilityTest.SanitizerSmoke:FusedTest.SanitizerSmoke:ReliabilityTest.NanInfPropagation'
for tool in memcheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 99 build-pbi/tests/blockfp8_gpu_tests --gtest_filter=$F > $R/$tool.log 2>&1
  echo "$tool rc=$? $(tail -n 1 $R/$tool.log)" >> $S
done
OUT=$R bash tools/binary_ab.sh pbi build-pbi/bench/blockfp8-bench build-main-fin/bench/blockfp8-bench \
  --shape 2112,7168 --shape 4096,7168 --shape 576,7168 --shape 7168,2048 --m 16,32,64 --no-cublaslt >> $S 2>&1
cat $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
