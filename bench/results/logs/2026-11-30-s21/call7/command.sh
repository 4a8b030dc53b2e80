#!/usr/bin/env bash
# s21 call 7 (20bfa3e): where the math warps of the 64-token decode kernel wait. ncu SourceCounters and
# WarpStateStats of swapab_splitk on 7168x16384 at M = 64 and M = 8 (for contrast): per-instruction
# stall samples (read with tools/ncu_sass_stalls.py).
set -u
rm -rf build-dev build-dev-x && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
B=build-dev/bench/blockfp8-bench
for m in 64 8; do
  A="--shape 7168,16384 --m $m --no-floor --no-cublaslt --no-bf16a --no-constw --no-check --replays 2"
  timeout 150 ncu --section SourceCounters --section WarpStateStats --launch-skip 3 --launch-count 1 \
    --kernel-name regex:swapab_splitk --page source --print-source sass --csv $B $A > $R/ncu_source_m$m.csv 2> $R/ncu_source_m$m.err
  echo "source m=$m rc=$? lines=$(wc -l < $R/ncu_source_m$m.csv)" >> $S
  timeout 120 ncu --section WarpStateStats --section SpeedOfLight --launch-skip 3 --launch-count 1 \
    --kernel-name regex:swapab_splitk $B $A > $R/ncu_stats_m$m.txt 2>&1
  echo "stats m=$m rc=$?" >> $S
done
cat $S
gzip -9 -n $R/*.csv
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
