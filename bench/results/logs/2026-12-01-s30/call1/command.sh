#!/usr/bin/env bash
# s30 call 1. Timelines (-DBLOCKFP8_TIMELINE=ON build at 67a858e) of the dispatcher's picks where the
# primary shape is furthest from its goals: 2112x7168 at M = 128 (two 64-token tiles, split 2) and 256
# (tiled, split 4); 7168x2304 at M = 256 (tiled, the largest loss to cuBLASLt at M <= 256); the primary
# at M = 1 from fp8 and from bf16 (the fused warp-MMA form); and M = 16 (mark 18 after 8e9b811).
set -u
rm -rf tl1 && tar -xJf build-carry/s30c1.tar.xz
R=$OUT/run; mkdir -p $R; T=tl1/decode_timeline
tl() { timeout 60 $T "$@" > $R/${PRE:-}$(echo "$@" | tr ' ' '_').txt 2>&1; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
for rep in 1 2; do
  export PRE=r${rep}_
  tl 2112 7168 128
  tl 2112 7168 256
  tl 7168 2304 256
  tl 2112 7168 1
  tl 2112 7168 1 bf16a
  tl 2112 7168 16
done
BLOCKFP8_PDL=0 PRE=nopdl_ tl 2112 7168 256
unset PRE
for f in $R/*.txt; do echo "== $(basename $f)"; head -40 $f; done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
