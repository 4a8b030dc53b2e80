#!/usr/bin/env bash
# s25 call 7. N = 926c4eb: the GPU tests (with the tiled kernel below 128 tokens through the dispatcher
# and bf16a's two launches there), then memcheck of those tests and of the tiled kernel's one-token-tile
# pairs.
set -u
rm -rf build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
T=build-var/N/blockfp8_gpu_tests
timeout 120 $T > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure" $R/gpu_tests.log | head -20 >> $S
timeout 240 compute-sanitizer --tool memcheck --error-exitcode 9 $T \
  --gtest_filter='FusedTest.TiledPlanBelowOneTokenTile:TiledTest.OneTokenTileClustersAlongN' > $R/memcheck.log 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck.log | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $R/memcheck.log | tr '\n' ' ')" >> $S
cat $S
gzip -9 -n $R/gpu_tests.log $R/memcheck.log
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
