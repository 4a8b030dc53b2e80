#!/usr/bin/env bash
# s35 call 4. c4 = s35-tile256 c03bd5d: main 39fd206 + 256-token tiles, picked from M = 512 and K = 1024 where their cost wins.
# (a) The whole benchmark, its repeat check and the plots: it replaces latest.jsonl.
# (b) Every GPU test (C++), then the Python GPU tests.
set -u
rm -rf c4 && tar -xJf build-carry/s35c4.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c4
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
B=$N/bench/blockfp8-bench
export BLOCKFP8_COMMIT=$(cat $N/COMMIT)
timeout 280 $B --commit $BLOCKFP8_COMMIT --json $R/bench.jsonl > $R/bench.md 2> $R/bench.err; echo "bench rc=$? $(wc -l < $R/bench.jsonl)" >> $S
timeout 45 $B --repeat-check --m 1,16,64,256 > $R/repeat.log 2>&1; echo "repeat rc=$? $(tail -n 2 $R/repeat.log | tr '\n' ' ')" >> $S
timeout 150 $N/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S; grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
for t in unit api; do timeout 20 $N/tests/blockfp8_${t}_tests > $R/${t}_tests.log 2>&1; echo "$t rc=$? $(tail -1 $R/${t}_tests.log)" >> $S; done
BLOCKFP8_LIBRARY=$PWD/$N/libblockfp8.so timeout 60 python3 -m pytest tests/python/test_gpu.py -q -p no:cacheprovider -x > $R/pytest.log 2>&1
echo "pytest rc=$? $(tail -1 $R/pytest.log)" >> $S
timeout 40 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --commit $BLOCKFP8_COMMIT --json bench.jsonl" > $R/plot.log 2>&1; echo "plot rc=$?" >> $S
cat $S
gzip $R/gpu_tests.log $R/bench.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
