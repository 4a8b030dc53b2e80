#!/usr/bin/env bash
# s19 call 2: call 1's forced token tiles again, with explicit splits (a split of 0 is refused):
# 8/16/32/64-token tiles at M = 1-32, the split the dispatcher takes on each weight, three shuffled
# rounds. M = 1 shows what a wider token tile costs with no token bytes (rows past M are TMA
# out-of-bounds fill); M = 8-32 how the time grows with the token bytes a CTA takes in.
set -u
[ -d build-dev ] || tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R
B=build-dev/bench/blockfp8-bench
for sk in 36864,7168:2 12288,7168:2 7168,16384:1 2112,7168:3; do
  shape=${sk%:*} s=${sk#*:}
  cfgs=""
  for t in 8 16 32 64; do cfgs="$cfgs --config swapab_r64_t${t}_s${s}_w2_k1_p0"; done
  timeout 200 $B --shape $shape --m 1,8,16,32 --no-cublaslt --no-bf16a $cfgs --config-rounds 3 \
    --json $R/tokens.jsonl >> $R/tokens.txt 2>&1
done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
