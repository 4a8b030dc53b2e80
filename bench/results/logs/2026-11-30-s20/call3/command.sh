#!/usr/bin/env bash
# s20 call 3 (5c0e2d8: scales by TMA in their own kernel instances, kScaleBox; every other instance's
# SASS as main's): GPU, unit and API tests; memcheck and synccheck of SanitizerSmoke,
# ForcedSwapabScalesByTma and ForcedSwapabConfigs; the dispatcher's choice against main's bench
# (567340d) interleaved twice; then the whole DeepSeek benchmark with plots.
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
B=build-dev/bench/blockfp8-bench
export BLOCKFP8_COMMIT=$(cat build-dev/COMMIT)
t0=$SECONDS
timeout 250 $B --commit $BLOCKFP8_COMMIT --json $R/bench.jsonl > $R/bench.log 2>&1; echo "bench rc=$? $((SECONDS - t0)) s" >> $R/summary.txt
timeout 40 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --json bench.jsonl" > $R/plot.log 2>&1; echo "plot rc=$?" >> $R/summary.txt
cat $R/summary.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
