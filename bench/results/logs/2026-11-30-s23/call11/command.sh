#!/usr/bin/env bash
# s23 call 11 (build-dev = 590e8c2): where the decode kernel's split-K tail waits. ncu SourceCounters at the
# finest sampling interval on the TMA decode kernel, 2112x7168 at M = 64 (wide sum, split 3) and M = 32
# (narrow sum), 7168x16384 at M = 64 (wide, split 1): per-instruction stall samples (read with
# tools/ncu_sass_stalls.py; the tail is the code after the last UCGABAR_WAIT before the stores).
set -u
rm -rf build-dev && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
B=build-dev/bench/blockfp8-bench
for spec in "2112,7168 64" "2112,7168 32" "7168,16384 64"; do
  set -- $spec
  A="--shape $1 --m $2 --no-floor --no-cublaslt --no-bf16a --no-constw --no-check --replays 2"
  timeout 150 ncu --section SourceCounters --warp-sampling-interval 0 --launch-skip 3 --launch-count 1 \
    --kernel-name regex:swapab_splitk --page source --print-source sass --csv $B $A > $R/ncu_${1/,/x}_m$2.csv 2> $R/ncu_${1/,/x}_m$2.err
  echo "ncu $spec rc=$? lines=$(wc -l < $R/ncu_${1/,/x}_m$2.csv)" >> $S
done
cat $S
gzip -9 -n $R/*.csv
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
