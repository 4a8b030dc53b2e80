#!/usr/bin/env bash
# s22 call 8 (build-dev/COMMIT = 1d816b7): would the primary shape and the small weights gain from tile
# heights that fill more SMs? Forced 40/48/56/64-row tiles at the dispatcher's split and one less, on
# 2112x7168 (33 tiles of 64 at split 3: 99 CTAs; 44 of 48: 132), 576x7168 and 1536x7168, M = 16 and 32,
# two shuffled rounds.
set -u
rm -rf build-dev && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
B=build-dev/bench/blockfp8-bench
for spec in "2112,7168 3 2" "576,7168 8 4" "1536,7168 4 8"; do
  set -- $spec
  for m in 16 32; do
    CFG=""
    for s in $2 $3; do for r in 64 56 48 40; do CFG="$CFG --config swapab_r${r}_t${m}_s${s}_w2_k0_p0"; done; done
    timeout 100 $B --shape $1 --m $m $CFG --config-rounds 2 --no-cublaslt --no-bf16a --no-constw \
      --json $R/fill_${1/,/x}_m$m.jsonl > $R/fill_${1/,/x}_m$m.txt 2>&1
    echo "fill $1 m=$m rc=$?" >> $S
  done
done
cat $R/fill_*.jsonl > $R/fill.jsonl
python3 tools/forced_vs_dispatch.py $R/fill.jsonl > $R/fill.md 2>&1
cat $S $R/fill.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
