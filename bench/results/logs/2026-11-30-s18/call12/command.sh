#!/usr/bin/env bash
# s18 call 12: the final tree (the tiled dispatcher's straddle cost on top of 51e6901): GPU, unit and
# API tests and the whole DeepSeek benchmark (settled) with plots. (Python tests: call 6, 51e6901;
# the change since is host dispatch code.)
set -u
BUDGET=40 OUT=$OUT bash tools/device_suite.sh build-dev env tests > /dev/null 2>&1
R=$OUT/run
B=build-dev/bench/blockfp8-bench
export BLOCKFP8_COMMIT=$(cat build-dev/COMMIT)
t0=$SECONDS
timeout 240 $B --commit $BLOCKFP8_COMMIT --json $R/bench.jsonl > $R/bench.log 2>&1; echo "bench rc=$? $((SECONDS - t0)) s" >> $R/summary.txt
timeout 40 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --json bench.jsonl" > $R/plot.log 2>&1; echo "plot rc=$?" >> $R/summary.txt
cat $R/summary.txt
tar -C $OUT -czf $OUT/device-run.tgz run && rm -rf $R
