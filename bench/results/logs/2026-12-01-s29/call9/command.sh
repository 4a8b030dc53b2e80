#!/usr/bin/env bash
# s29 call 9. The whole benchmark at 72cfd29 (build-fin, as call 8 validated it), with its repeat check, the
# quantiser bench and the plots.
set -u
rm -rf build-fin && tar -xJf build-carry/s29c8.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
B=build-fin/bench/blockfp8-bench
export BLOCKFP8_COMMIT=$(cat build-fin/COMMIT)
timeout 60 $B --repeat-check --m 1,16,64,256 > $R/repeat.log 2>&1; echo "repeat rc=$? $(tail -n 2 $R/repeat.log | tr '\n' ' ')" >> $S
timeout 360 $B --commit $BLOCKFP8_COMMIT --json $R/bench.jsonl > $R/bench.md 2> $R/bench.err; echo "bench rc=$? $(wc -l < $R/bench.jsonl)" >> $S
timeout 40 $B --quant --json $R/quant.jsonl > $R/quant.md 2>&1; echo "quant rc=$?" >> $S
timeout 40 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --commit $BLOCKFP8_COMMIT --json bench.jsonl" > $R/plot.log 2>&1; echo "plot rc=$?" >> $S
cat $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
