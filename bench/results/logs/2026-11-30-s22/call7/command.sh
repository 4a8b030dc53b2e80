#!/usr/bin/env bash
# s22 call 7 (build-dev/COMMIT = 1d816b7; call 6 again after the ring-depth fix): the GPU tests, then the whole benchmark (every DeepSeek
# shape at TP 1-8, M = 1-8192, floor, cuBLASLt, const weights, bf16a), its plots and per-shape page,
# and the repeat check (timing agreement, bitwise outputs).
set -u
rm -rf build-dev && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
C=$(cat build-dev/COMMIT)
timeout 60 build-dev/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(tail -n 1 $R/gpu_tests.log)" >> $S
timeout 400 build-dev/bench/blockfp8-bench --commit $C --json $R/bench.jsonl > $R/bench.md 2> $R/bench.err
echo "bench rc=$?" >> $S
timeout 60 build-dev/bench/blockfp8-bench --repeat-check --m 1,4,16,64,256 > $R/bench_repeat.log 2>&1
echo "repeat rc=$? $(tail -n 1 $R/bench_repeat.log)" >> $S
timeout 100 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md \
  --command "blockfp8-bench --commit $C --json bench.jsonl" > $R/plot.log 2>&1
echo "plot rc=$?" >> $S
cat $S
gzip -9 -n $R/bench.jsonl $R/bench.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
