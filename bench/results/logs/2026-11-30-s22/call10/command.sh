#!/usr/bin/env bash
# s22 call 10 (build-dev/COMMIT = 54ad5ec): 32 tokens on the long-K weights that are still 1.3-1.5x the
# floor there. Forced 64/56/48/40-row tiles at split 1 and 2, two shuffled rounds, each weight its own
# run (a forced configuration is named with its split).
set -u
rm -rf build-dev && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
B=build-dev/bench/blockfp8-bench
CFG=""
for s in 1 2; do for r in 64 56 48 40; do CFG="$CFG --config swapab_r${r}_t32_s${s}_w2_k0_p0"; done; done
for w in 9216,7168 12288,7168 18432,7168 24576,7168 36864,7168 4608,7168 4096,7168 7168,4096; do
  timeout 120 $B --shape $w --m 32 $CFG --config-rounds 2 --no-floor --no-cublaslt --no-bf16a --no-constw \
    --json $R/t32_${w/,/x}.jsonl > $R/t32_${w/,/x}.txt 2>&1
  echo "t32 $w rc=$?" >> $S
done
cat $R/t32_*.jsonl > $R/t32.jsonl
python3 tools/forced_vs_dispatch.py $R/t32.jsonl > $R/t32.md 2>&1
cat $S $R/t32.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
