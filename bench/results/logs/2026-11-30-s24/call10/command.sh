#!/usr/bin/env bash
# s24 call 10 (build-dev/COMMIT = 41cfae4: the session's final kernels and dispatcher): the GPU tests,
# then the whole benchmark (every DeepSeek shape at TP 1-8, M = 1-8192, floor, cuBLASLt, const weights,
# bf16a), the repeat check, plots and the per-shape page. (The rest of the suite ran at 65c409b in call 6.)
set -u
rm -rf build-dev && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
C=$(cat build-dev/COMMIT)
timeout 40 build-dev/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
timeout 280 build-dev/bench/blockfp8-bench --commit $C --json $R/bench.jsonl > $R/bench.md 2> $R/bench.err
echo "bench rc=$?" >> $S
timeout 40 build-dev/bench/blockfp8-bench --repeat-check --m 1,4,16,64,128,256 > $R/bench_repeat.log 2>&1
echo "repeat rc=$? $(tail -n 1 $R/bench_repeat.log)" >> $S
timeout 40 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md \
  --command "blockfp8-bench --commit $C --json bench.jsonl" > $R/plot.log 2>&1
echo "plot rc=$?" >> $S
cat $S
gzip -9 -n $R/bench.jsonl $R/bench.md $R/gpu_tests.log 2>/dev/null
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
