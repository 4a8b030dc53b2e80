#!/usr/bin/env bash
# s26 call 5 (build-dev = 2fd704c). The evidence run: SASS (QGMMA kinds, no local memory), the GPU tests,
# memcheck and racecheck on the tiled split-K and smoke tests, the whole benchmark with its repeat check
# and plots.
set -u
rm -rf build-dev && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
B=build-dev/bench/blockfp8-bench
export BLOCKFP8_COMMIT=$(cat build-dev/COMMIT)
SASS=$(mktemp); cuobjdump -sass build-dev/libblockfp8.so > $SASS
grep -oE 'QGMMA\.[^ ]*' $SASS | sort | uniq -c > $R/sass_qgmma.log
echo "QGMMA kinds: $(wc -l < $R/sass_qgmma.log); LDL/STL: $(grep -cE '\b(LDL|STL)\b' $SASS)" >> $S; rm -f $SASS
timeout 200 build-dev/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure" $R/gpu_tests.log | head -20 >> $S
export BLOCKFP8_TEST_TIMEOUT=190
F='TiledTest.SplitK:ReliabilityTest.SanitizerSmoke:FusedTest.SanitizerSmoke:FusedTest.TiledPlanBelowOneTokenTile'
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 99 build-dev/tests/blockfp8_gpu_tests --gtest_filter="$F" > $R/sanitizer_$tool.log 2>&1
  echo "sanitizer $tool rc=$? $(tail -n 1 $R/sanitizer_$tool.log)" >> $S
done
unset BLOCKFP8_TEST_TIMEOUT
timeout 100 $B --repeat-check --m 1,4,16,64,128,256 > $R/repeat.log 2>&1; echo "repeat rc=$? $(tail -n 2 $R/repeat.log | tr '\n' ' ')" >> $S
timeout 330 $B --commit $BLOCKFP8_COMMIT --json $R/bench.jsonl > $R/bench.md 2> $R/bench.err; echo "bench rc=$? $(wc -l < $R/bench.jsonl)" >> $S
timeout 60 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --commit $BLOCKFP8_COMMIT --json bench.jsonl" > $R/plot.log 2>&1; echo "plot rc=$?" >> $S
gzip -9 -n $R/gpu_tests.log $R/sanitizer_*.log
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
