#!/usr/bin/env bash
# s33 call 2. c2 = a550b71 (the s33 dispatcher: 576x7168 on the tiled kernel's split above 128 tokens, splits
# of at most 4 beyond two token tiles; blockfp8_config_resolve from s32). (a) Every GPU test (C++), and the
# Python plan/resolve test. (b) The whole benchmark, its repeat check and the plots.
set -u
rm -rf c2 && tar -xJf build-carry/s33c2.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c2
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
timeout 170 $N/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S; grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
for t in unit api; do timeout 30 $N/tests/blockfp8_${t}_tests > $R/${t}_tests.log 2>&1; echo "$t rc=$? $(tail -1 $R/${t}_tests.log)" >> $S; done
BLOCKFP8_LIBRARY=$PWD/$N/libblockfp8.so timeout 60 python3 -m pytest tests/python/test_gpu.py -q -p no:cacheprovider -k "plan_and_config_name" > $R/pytest.log 2>&1
echo "pytest rc=$? $(tail -1 $R/pytest.log)" >> $S
B=$N/bench/blockfp8-bench
export BLOCKFP8_COMMIT=$(cat $N/COMMIT)
timeout 50 $B --repeat-check --m 1,16,64,256 > $R/repeat.log 2>&1; echo "repeat rc=$? $(tail -n 2 $R/repeat.log | tr '\n' ' ')" >> $S
timeout 340 $B --commit $BLOCKFP8_COMMIT --json $R/bench.jsonl > $R/bench.md 2> $R/bench.err; echo "bench rc=$? $(wc -l < $R/bench.jsonl)" >> $S
timeout 40 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --commit $BLOCKFP8_COMMIT --json bench.jsonl" > $R/plot.log 2>&1; echo "plot rc=$?" >> $S
cat $S
gzip $R/gpu_tests.log $R/bench.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
