#!/usr/bin/env bash
# s20 call 5: the final kernels (a_scale boxes in the reduction buffers or the next tile's scale buffer;
# build-dev/COMMIT): GPU, unit and API tests, the fuzzer, the Python tests through the device's torch,
# then the whole DeepSeek benchmark with plots.
set -u
rm -rf build-dev build-dev-x && tar -xJf build-carry/dev.tar.xz
FUZZ_SECONDS=60 BUDGET=200 OUT=$OUT bash tools/device_suite.sh build-dev env tests fuzz python > /dev/null 2>&1
R=$OUT/run
B=build-dev/bench/blockfp8-bench
export BLOCKFP8_COMMIT=$(cat build-dev/COMMIT)
t0=$SECONDS
timeout 250 $B --commit $BLOCKFP8_COMMIT --json $R/bench.jsonl > $R/bench.log 2>&1; echo "bench rc=$? $((SECONDS - t0)) s" >> $R/summary.txt
timeout 40 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --json bench.jsonl" > $R/plot.log 2>&1; echo "plot rc=$?" >> $R/summary.txt
cat $R/summary.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
