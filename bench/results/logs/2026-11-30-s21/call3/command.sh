#!/usr/bin/env bash
# s21 call 3 (build-dev/COMMIT): GPU, unit and API tests, the fuzzer, the Python tests; memcheck,
# synccheck and racecheck of the decode tests; the const-weights fault loop on this build; the whole
# DeepSeek benchmark (blockfp8_constw now timed by default) with plots.
set -u
rm -rf build-dev build-dev-x && tar -xJf build-carry/dev.tar.xz
FUZZ_SECONDS=40 BUDGET=150 OUT=$OUT bash tools/device_suite.sh build-dev env tests fuzz python > /dev/null 2>&1
R=$OUT/run; S=$R/summary.txt
T=build-dev/tests/blockfp8_gpu_tests
F='ReliabilityTest.SanitizerSmoke:GemmTest.ForcedSwapabScalesByTma:ReliabilityTest.ConstWeightsBackToBackInAGraph'
for tool in memcheck synccheck racecheck; do
  BLOCKFP8_TEST_TIMEOUT=50 timeout 55 compute-sanitizer --tool $tool --error-exitcode 99 $T \
    --gtest_filter="$F" > $R/sanitizer_$tool.log 2>&1
  echo "sanitizer_$tool rc=$? $(tail -1 $R/sanitizer_$tool.log)" >> $S
done
OUT=$R/loop SECONDS_BUDGET=50 timeout 70 bash tools/constw_fault_loop.sh build-dev/bench > $R/loop.log 2>&1
echo "fault loop rc=$? $(cat $R/loop/fault_summary.txt 2>/dev/null | tr '\n' ' ')" >> $S
B=build-dev/bench/blockfp8-bench
export BLOCKFP8_COMMIT=$(cat build-dev/COMMIT)
t0=$SECONDS
timeout 300 $B --commit $BLOCKFP8_COMMIT --json $R/bench.jsonl > $R/bench.log 2>&1; echo "bench rc=$? $((SECONDS - t0)) s" >> $S
timeout 40 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --json bench.jsonl" > $R/plot.log 2>&1; echo "plot rc=$?" >> $S
cat $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
