#!/usr/bin/env bash
# s23 call 13 (build-dev/COMMIT = 9d8f27d, the session's final kernels): the GPU tests, memcheck
# over SanitizerSmoke, outputs bitwise against fe8cc31 (build-var/old) at the DeepSeek set, then
# the whole benchmark (every DeepSeek shape at TP 1-8, M = 1-8192, floor, cuBLASLt, const weights, bf16a),
# the repeat check, plots and the per-shape page.
set -u
rm -rf build-dev build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
C=$(cat build-dev/COMMIT)
T=build-dev/tests/blockfp8_gpu_tests
timeout 60 $T > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
for tool in memcheck; do
  timeout 80 compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter='ReliabilityTest.SanitizerSmoke' \
    > $R/sanitizer_$tool.log 2>&1
  echo "sanitizer $tool (SanitizerSmoke) rc=$? $(grep -m1 'ERROR SUMMARY' $R/sanitizer_$tool.log)" >> $S
done
timeout 120 python3 tools/bitwise_vs_lib.py build-var/old/libblockfp8.so build-dev/libblockfp8.so > $R/bitwise.log 2>&1
echo "bitwise fe8cc31 vs $C rc=$? $(tail -1 $R/bitwise.log)" >> $S
timeout 300 build-dev/bench/blockfp8-bench --commit $C --json $R/bench.jsonl > $R/bench.md 2> $R/bench.err
echo "bench rc=$?" >> $S
timeout 40 build-dev/bench/blockfp8-bench --repeat-check --m 1,4,16,64,256 > $R/bench_repeat.log 2>&1
echo "repeat rc=$? $(tail -n 1 $R/bench_repeat.log)" >> $S
timeout 60 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md \
  --command "blockfp8-bench --commit $C --json bench.jsonl" > $R/plot.log 2>&1
echo "plot rc=$?" >> $S
cat $S
gzip -9 -n $R/bench.jsonl $R/bench.md $R/gpu_tests.log 2>/dev/null
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
