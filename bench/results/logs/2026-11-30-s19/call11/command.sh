#!/usr/bin/env bash
# s19 call 11 (wip/t64-split-tokens at e2f10b7): 64-token tiles split by tokens over the two math warpgroups (each
# 32 tokens of every stage, as 128-token tiles do) instead of alternating stages, against the tail-box
# build (973dec4), interleaved twice, the dispatcher's choice at M = 33-64 on nine weights; then the
# GPU tests of the decode kernel's forced configurations.
set -u
rm -rf build-dev build-dev-x && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R
SHAPES=""
for s in 2112,7168 1536,7168 576,7168 4096,7168 7168,16384 6144,1536 3072,1536 4096,512 7168,2048; do SHAPES="$SHAPES --shape $s"; done
OUT=$R timeout 200 bash tools/binary_ab.sh t64split build-dev/bench/blockfp8-bench build-dev-x/tail/blockfp8-bench \
  $SHAPES --m 33,48,64 --no-cublaslt > $R/ab.log 2>&1
BLOCKFP8_TEST_TIMEOUT=60 timeout 60 build-dev/tests/blockfp8_gpu_tests --gtest_filter='GemmTest.ForcedSwapab*:ReliabilityTest.SanitizerSmoke:GemmTest.DispatcherShapes' > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -c '^\[       OK' $R/gpu_tests.log) ok" >> $R/summary.txt
cat $R/summary.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
