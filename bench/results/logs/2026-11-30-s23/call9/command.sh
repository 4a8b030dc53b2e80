#!/usr/bin/env bash
# s23 call 9 (build-dev/COMMIT = 590e8c2): the device suite (GPU tests, unit, API, pytest, fuzzer), memcheck
# over SanitizerSmoke, then the whole benchmark (every DeepSeek shape at TP 1-8, M = 1-8192, floor,
# cuBLASLt, const weights, bf16a), the repeat check (timing agreement, bitwise outputs), plots and the
# per-shape page.
set -u
rm -rf build-dev && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R
FUZZ_SECONDS=30 BUDGET=120 OUT=$OUT bash tools/device_suite.sh build-dev env tests fuzz python > /dev/null 2>&1
S=$R/summary.txt
C=$(cat build-dev/COMMIT)
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 3 build-dev/tests/blockfp8_gpu_tests \
  --gtest_filter='ReliabilityTest.SanitizerSmoke' > $R/sanitizer_memcheck.log 2>&1
echo "sanitizer memcheck (SanitizerSmoke) rc=$? $(grep -m1 'ERROR SUMMARY' $R/sanitizer_memcheck.log)" >> $S
timeout 330 build-dev/bench/blockfp8-bench --commit $C --json $R/bench.jsonl > $R/bench.md 2> $R/bench.err
echo "bench rc=$?" >> $S
timeout 60 build-dev/bench/blockfp8-bench --repeat-check --m 1,4,16,64,256 > $R/bench_repeat.log 2>&1
echo "repeat rc=$? $(tail -n 1 $R/bench_repeat.log)" >> $S
timeout 60 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md \
  --command "blockfp8-bench --commit $C --json bench.jsonl" > $R/plot.log 2>&1
echo "plot rc=$?" >> $S
cat $S
gzip -9 -n $R/bench.jsonl $R/bench.md $R/gpu_tests.log 2>/dev/null
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
