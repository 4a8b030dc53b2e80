#!/usr/bin/env bash
# s31 call 5. The whole benchmark at c5 = 7f50762 (validated in call 4), its repeat check, the quantiser
# bench and the plots.
set -u
rm -rf c1 c5 && tar -xJf build-carry/s31c4.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c5/dev
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
B=$N/bench/blockfp8-bench
export BLOCKFP8_COMMIT=$(cat $N/COMMIT)
timeout 50 $B --repeat-check --m 1,16,64,256 > $R/repeat.log 2>&1; echo "repeat rc=$? $(tail -n 2 $R/repeat.log | tr '\n' ' ')" >> $S
timeout 330 $B --commit $BLOCKFP8_COMMIT --json $R/bench.jsonl > $R/bench.md 2> $R/bench.err; echo "bench rc=$? $(wc -l < $R/bench.jsonl)" >> $S
timeout 40 $B --quant --json $R/quant.jsonl > $R/quant.md 2>&1; echo "quant rc=$?" >> $S
timeout 40 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --commit $BLOCKFP8_COMMIT --json bench.jsonl" > $R/plot.log 2>&1; echo "plot rc=$?" >> $S
cat $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
