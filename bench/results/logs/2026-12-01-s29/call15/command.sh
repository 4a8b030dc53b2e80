#!/usr/bin/env bash
# s29 call 15. The whole benchmark at 2ec8aa6 (build-fin2: GPU tests in call 13, the fuzzer in call 14; 72cfd29 plus
# 1536x7168 at 6-8 tokens on the TMA kernel), with its repeat check, the
# quantiser bench and the plots.
set -u
tar -xJf build-carry/s29c13.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
B=build-fin2/bench/blockfp8-bench
export BLOCKFP8_COMMIT=$(cat build-fin2/COMMIT)
timeout 60 $B --repeat-check --m 1,16,64,256 > $R/repeat.log 2>&1; echo "repeat rc=$? $(tail -n 2 $R/repeat.log | tr '\n' ' ')" >> $S
timeout 360 $B --commit $BLOCKFP8_COMMIT --json $R/bench.jsonl > $R/bench.md 2> $R/bench.err; echo "bench rc=$? $(wc -l < $R/bench.jsonl)" >> $S
timeout 40 $B --quant --json $R/quant.jsonl > $R/quant.md 2>&1; echo "quant rc=$?" >> $S
timeout 40 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --commit $BLOCKFP8_COMMIT --json bench.jsonl" > $R/plot.log 2>&1; echo "plot rc=$?" >> $S
cat $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
