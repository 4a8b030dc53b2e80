#!/usr/bin/env bash
# s30 call 8. The whole benchmark at d4f9625 (validated in call 7: the bf16a path's quantiser with PDL on
# weights up to 16 MiB), with its repeat check, the quantiser bench and the plots.
set -u
rm -rf b7 && tar -xJf build-carry/s30c7.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
B=b7/new/bench/blockfp8-bench
export BLOCKFP8_COMMIT=$(cat b7/new/COMMIT)
timeout 50 $B --repeat-check --m 1,16,64,256 > $R/repeat.log 2>&1; echo "repeat rc=$? $(tail -n 2 $R/repeat.log | tr '\n' ' ')" >> $S
timeout 330 $B --commit $BLOCKFP8_COMMIT --json $R/bench.jsonl > $R/bench.md 2> $R/bench.err; echo "bench rc=$? $(wc -l < $R/bench.jsonl)" >> $S
timeout 40 $B --quant --json $R/quant.jsonl > $R/quant.md 2>&1; echo "quant rc=$?" >> $S
timeout 40 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --commit $BLOCKFP8_COMMIT --json bench.jsonl" > $R/plot.log 2>&1; echo "plot rc=$?" >> $S
cat $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
