#!/usr/bin/env bash
# s24 call 6 (build-dev/COMMIT = 65c409b: the session's final kernels): the device suite (GPU tests,
# unit, API, pytest, fuzzer), the whole benchmark (every DeepSeek shape at TP 1-8, M = 1-8192, floor,
# cuBLASLt, const weights, bf16a), the repeat check (timing agreement, bitwise outputs), plots and the
# per-shape page; then, in the time left, memcheck over SanitizerSmoke and TiledTest.SplitK, racecheck
# over TiledTest.SplitK, and the outputs bitwise against 30c83c6 (build-dev/old) at the DeepSeek set.
set -u
rm -rf build-dev && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R
FUZZ_SECONDS=30 BUDGET=120 OUT=$OUT bash tools/device_suite.sh build-dev env tests fuzz python > /dev/null 2>&1
S=$R/summary.txt
C=$(cat build-dev/COMMIT)
# what is left of 560 s since the start, at most $1 (the archive must be written before the 600 s limit)
left() { local l=$((560 - SECONDS)); [ $l -lt 1 ] && l=1; [ $l -gt $1 ] && l=$1; echo $l; }
T=build-dev/tests/blockfp8_gpu_tests
timeout 300 build-dev/bench/blockfp8-bench --commit $C --json $R/bench.jsonl > $R/bench.md 2> $R/bench.err
echo "bench rc=$?" >> $S
timeout 50 build-dev/bench/blockfp8-bench --repeat-check --m 1,4,16,64,256 > $R/bench_repeat.log 2>&1
echo "repeat rc=$? $(tail -n 1 $R/bench_repeat.log)" >> $S
timeout 60 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md \
  --command "blockfp8-bench --commit $C --json bench.jsonl" > $R/plot.log 2>&1
echo "plot rc=$?" >> $S
timeout $(left 80) compute-sanitizer --tool memcheck --error-exitcode 3 $T \
  --gtest_filter='ReliabilityTest.SanitizerSmoke:TiledTest.SplitK' > $R/sanitizer_memcheck.log 2>&1
echo "sanitizer memcheck (SanitizerSmoke, TiledTest.SplitK) rc=$? $(grep -m1 'ERROR SUMMARY' $R/sanitizer_memcheck.log)" >> $S
timeout $(left 60) compute-sanitizer --tool racecheck --error-exitcode 3 $T --gtest_filter='TiledTest.SplitK' \
  > $R/sanitizer_racecheck.log 2>&1
echo "sanitizer racecheck (TiledTest.SplitK) rc=$? $(grep -m1 'ERROR SUMMARY' $R/sanitizer_racecheck.log)" >> $S
timeout $(left 90) python3 tools/bitwise_vs_lib.py build-dev/old/libblockfp8.so build-dev/libblockfp8.so > $R/bitwise.log 2>&1
echo "bitwise 30c83c6 vs $C rc=$? $(tail -1 $R/bitwise.log)" >> $S
cat $S
gzip -9 -n $R/bench.jsonl $R/bench.md $R/gpu_tests.log $R/sanitizer_*.log 2>/dev/null
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
