#!/usr/bin/env bash
# s26 call 11 (build-dev = 8a48202: the decode kernel's warp index from lane 0). memcheck and racecheck on the
# sanitizer smokes (they run the decode kernels), then the whole benchmark with its repeat check and plots.
set -u
rm -rf build-dev && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
B=build-dev/bench/blockfp8-bench
export BLOCKFP8_COMMIT=$(cat build-dev/COMMIT)
export BLOCKFP8_TEST_TIMEOUT=100
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 99 build-dev/tests/blockfp8_gpu_tests \
    --gtest_filter='ReliabilityTest.SanitizerSmoke:FusedTest.SanitizerSmoke' > $R/sanitizer_$tool.log 2>&1
  echo "sanitizer $tool rc=$? $(tail -n 1 $R/sanitizer_$tool.log)" >> $S
done
unset BLOCKFP8_TEST_TIMEOUT
timeout 80 $B --repeat-check --m 1,4,16,64,128,256 > $R/repeat.log 2>&1; echo "repeat rc=$? $(tail -n 2 $R/repeat.log | tr '\n' ' ')" >> $S
timeout 330 $B --commit $BLOCKFP8_COMMIT --json $R/bench.jsonl > $R/bench.md 2> $R/bench.err; echo "bench rc=$? $(wc -l < $R/bench.jsonl)" >> $S
timeout 40 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --commit $BLOCKFP8_COMMIT --json bench.jsonl" > $R/plot.log 2>&1; echo "plot rc=$?" >> $S
gzip -9 -n $R/sanitizer_*.log
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
