#!/usr/bin/env bash
# s23 call 6. build-var/C = 3f70a7e (64-token warpgroups with the tokens on wgmma's M side, the wide pulled
# sum); S = C with the dispatcher taking straddling tiles at 64 tokens too (kSwapabStraddleMaxTokenTile
# 64: 56-row tiles on seven N = 7168 / 6144 weights at M = 33-64; host code only). NS = C's timeline
# build with the wide sum's stores of C left out (timing only: the outputs are not written).
# The dispatcher's picks S against C, interleaved; timelines of C and NS.
set -u
rm -rf build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
for spec in "7168 16384 64" "2112 7168 64"; do
  set -- $spec
  for v in C NS; do
    BLOCKFP8_PDL=0 timeout 60 build-var/$v/decode_timeline $1 $2 $3 > $R/tl_${v}_${1}x${2}_m$3.txt 2>&1
    echo "timeline $v $spec rc=$?" >> $S
  done
done
ARGS=""
for s in 7168,16384 7168,8192 7168,4096 7168,18432 7168,9216 7168,4608 6144,7168; do ARGS="$ARGS --shape $s"; done
OUT=$R bash tools/binary_ab.sh S build-var/S/blockfp8-bench build-var/C/blockfp8-bench $ARGS \
  --m 33,40,48,56,64 --no-floor --no-cublaslt > /dev/null 2>&1
echo "ab S rc=$?" >> $S
cat $S
for f in $R/tl_*_m*.txt; do echo "== $f"; sed -n '1p;7,10p' $f; done
cat $R/S_ab.md
for f in $R/*.log $R/*.txt $R/*.jsonl; do [ -f $f ] && [ $(stat -c %s $f) -gt 30000 ] && gzip -9 -n $f; done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
