#!/usr/bin/env bash
# s15 call 8: the final tree (fence, settled bench by default, refitted tiled dispatcher): GPU, unit
# and API tests, the fuzzer for 60 s, then the whole DeepSeek benchmark (settled: --settle-ms 100 is
# now the default) with plots, and the quantiser.
set -u
BUDGET=${BUDGET:-560} OUT=$OUT bash tools/device_suite.sh build-dev env tests > /dev/null 2>&1
R=$OUT/run
B=build-dev/bench/blockfp8-bench
timeout 90 build-dev/tests/blockfp8_fuzz --cases 2000 --max-seconds 60 > $R/fuzz.log 2>&1; echo "fuzz rc=$? $(tail -n 1 $R/fuzz.log)" >> $R/summary.txt
t0=$SECONDS
timeout 330 $B --json $R/bench.jsonl > $R/bench.log 2>&1; echo "bench rc=$? $((SECONDS - t0)) s" >> $R/summary.txt
cp $R/bench.log $R/bench.md
timeout 60 $B --quant --json $R/bench_quant.jsonl > $R/bench_quant.log 2>&1; echo "quant rc=$? $(tail -n 1 $R/bench_quant.log)" >> $R/summary.txt
timeout 90 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --json bench.jsonl" > $R/plot.log 2>&1; echo "plot rc=$?" >> $R/summary.txt
cat $R/summary.txt
tar -C $OUT -czf $OUT/device-run.tgz run
