#!/usr/bin/env bash
# s25 call 11. The whole benchmark at 9a37d8d (every dispatcher rule of the session; the library as
# 926c4eb plus the 1-4 and 65-128-token rules), its repeat check and plots.
set -u
rm -rf build-dev && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
B=build-dev/bench/blockfp8-bench
timeout 300 $B --commit 9a37d8d --json $R/bench.jsonl > $R/bench.log 2>&1
echo "bench rc=$? $(wc -l < $R/bench.jsonl) lines" >> $S
timeout 45 $B --repeat-check --m 1,4,16,64,128,256 > $R/repeat.log 2>&1
echo "repeat rc=$? $(tail -2 $R/repeat.log | tr '\n' ' ')" >> $S
timeout 40 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md > $R/plot.log 2>&1
echo "plot rc=$?" >> $S
cat $S
gzip -9 -n $R/bench.log
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
