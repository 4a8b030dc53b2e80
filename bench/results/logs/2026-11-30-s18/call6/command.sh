#!/usr/bin/env bash
# s18 call 6: the final tree (the owner's sum at token tiles of 8 and 16): GPU, unit and API tests,
# the whole DeepSeek benchmark (settled) with plots, the quantiser, the Python tests and the Python
# bench. (Fuzzer, memcheck and racecheck of the owner's sum: call 4, same kernels.)
set -u
BUDGET=60 OUT=$OUT bash tools/device_suite.sh build-dev env tests > /dev/null 2>&1
R=$OUT/run
B=build-dev/bench/blockfp8-bench
export BLOCKFP8_COMMIT=$(cat build-dev/COMMIT)
t0=$SECONDS
timeout 330 $B --commit $BLOCKFP8_COMMIT --json $R/bench.jsonl > $R/bench.log 2>&1; echo "bench rc=$? $((SECONDS - t0)) s" >> $R/summary.txt
cp $R/bench.log $R/bench.md
timeout 50 $B --quant --commit $BLOCKFP8_COMMIT --json $R/bench_quant.jsonl > $R/bench_quant.log 2>&1; echo "quant rc=$? $(tail -n 1 $R/bench_quant.log | cut -c1-60)" >> $R/summary.txt
timeout 60 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --json bench.jsonl" > $R/plot.log 2>&1; echo "plot rc=$?" >> $R/summary.txt
export BLOCKFP8_LIBRARY=$PWD/build-dev/libblockfp8.so
timeout 80 python3 -m pytest tests/python -q -p no:cacheprovider > $R/pytest.log 2>&1; echo "pytest rc=$? $(tail -n 1 $R/pytest.log)" >> $R/summary.txt
PYTHONPATH=$PWD/python timeout 40 python3 -m blockfp8.bench --shape 2112,7168 --m 1,16,4096 --json $R/pybench.jsonl > $R/pybench.log 2>&1; echo "pybench rc=$? $(tail -n 1 $R/pybench.log | cut -c1-80)" >> $R/summary.txt
cat $R/summary.txt
tar -C $OUT -czf $OUT/device-run.tgz run && rm -rf $R
