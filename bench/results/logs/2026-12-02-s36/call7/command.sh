#!/usr/bin/env bash
# s36 call 7. c4 = 5dbdbcf (main with the measured picks for fused_qkv_a at M = 385-576): the whole
# benchmark (it replaces latest.jsonl), its repeat check, the plots. The GPU tests ran in call 6.
set -u
trap 'tar -C $OUT -czf $OUT/run.tgz run && rm -rf $OUT/run' EXIT
rm -rf c4 && tar -xJf build-carry/s36c4.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c4; B=$N/bench/blockfp8-bench
export BLOCKFP8_COMMIT=$(cat $N/COMMIT)
timeout 285 $B --commit $BLOCKFP8_COMMIT --json $R/bench.jsonl > $R/bench.md 2> $R/bench.err; echo "bench rc=$? $(wc -l < $R/bench.jsonl) at $SECONDS s" >> $S
timeout 25 $B --repeat-check --m 1,16,64,512 > $R/repeat.log 2>&1; echo "repeat rc=$? $(tail -n 2 $R/repeat.log | tr '\n' ' ')" >> $S
timeout 25 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --commit $BLOCKFP8_COMMIT --json bench.jsonl" > $R/plot.log 2>&1; echo "plot rc=$?" >> $S
cat $S
gzip $R/bench.md $R/bench.jsonl
