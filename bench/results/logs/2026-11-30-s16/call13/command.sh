#!/usr/bin/env bash
# s16 call 13: the final tree (the tiled kernel's carried stage addresses): GPU, unit and API tests,
# the whole DeepSeek benchmark (settled) with plots, the quantiser, the fuzzer for 40 s, memcheck of the
# tiled tests, the Python tests and the Python bench's first run with settling.
set -u
BUDGET=${BUDGET:-560} OUT=$OUT bash tools/device_suite.sh build-dev env tests > /dev/null 2>&1
R=$OUT/run
B=build-dev/bench/blockfp8-bench
export BLOCKFP8_COMMIT=$(cat build-dev/COMMIT)
t0=$SECONDS
timeout 330 $B --commit $BLOCKFP8_COMMIT --json $R/bench.jsonl > $R/bench.log 2>&1; echo "bench rc=$? $((SECONDS - t0)) s" >> $R/summary.txt
cp $R/bench.log $R/bench.md
timeout 60 $B --quant --commit $BLOCKFP8_COMMIT --json $R/bench_quant.jsonl > $R/bench_quant.log 2>&1; echo "quant rc=$? $(tail -n 1 $R/bench_quant.log)" >> $R/summary.txt
timeout 90 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --json bench.jsonl" > $R/plot.log 2>&1; echo "plot rc=$?" >> $R/summary.txt
timeout 60 build-dev/tests/blockfp8_fuzz --cases 2000 --max-seconds 40 > $R/fuzz.log 2>&1; echo "fuzz rc=$? $(tail -n 1 $R/fuzz.log)" >> $R/summary.txt
BLOCKFP8_TEST_TIMEOUT=50 timeout 55 compute-sanitizer --tool memcheck --error-exitcode 99 build-dev/tests/blockfp8_gpu_tests --gtest_filter='TiledTest.*' > $R/memcheck_tiled.log 2>&1; echo "memcheck tiled rc=$? $(tail -n 1 $R/memcheck_tiled.log)" >> $R/summary.txt
export BLOCKFP8_LIBRARY=$PWD/build-dev/libblockfp8.so
timeout 80 python3 -m pytest tests/python -q -p no:cacheprovider > $R/pytest.log 2>&1; echo "pytest rc=$? $(tail -n 1 $R/pytest.log)" >> $R/summary.txt
PYTHONPATH=$PWD/python timeout 60 python3 -m blockfp8.bench --shape 2112,7168 --m 1,16,4096 --json $R/pybench.jsonl > $R/pybench.log 2>&1; echo "pybench rc=$? $(tail -n 1 $R/pybench.log)" >> $R/summary.txt
cat $R/summary.txt
tar -C $OUT -czf $OUT/device-run.tgz run
