#!/usr/bin/env bash
# s23 call 7. Call 6 found the wide sum's 1.2 us after the cluster barrier to be its stores of C (left
# out, "stored" follows "parked" by 30 ns). build-var/C = 3f70a7e; P64 / P8 = C with each math thread
# t < TN prefetching (prefetch.global.L2) the first line of C's row t of its tile as the tile starts,
# at 64-128-token tiles / at every tile. Timelines; the dispatcher's picks against C, interleaved.
set -u
rm -rf build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
for spec in "7168 16384 64" "2112 7168 64" "2112 7168 32" "4096 7168 32"; do
  set -- $spec
  for v in C P64 P8; do
    BLOCKFP8_PDL=0 timeout 60 build-var/$v/decode_timeline $1 $2 $3 > $R/tl_${v}_${1}x${2}_m$3.txt 2>&1
    echo "timeline $v $spec rc=$?" >> $S
  done
done
ARGS=""
for s in 2112,7168 4096,7168 7168,16384 576,7168 7168,2048 3072,1536 1536,7168 4608,7168; do ARGS="$ARGS --shape $s"; done
OUT=$R bash tools/binary_ab.sh P64 build-var/P64/blockfp8-bench build-var/C/blockfp8-bench $ARGS \
  --m 40,64,96 --no-floor --no-cublaslt > /dev/null 2>&1
OUT=$R bash tools/binary_ab.sh P8 build-var/P8/blockfp8-bench build-var/C/blockfp8-bench $ARGS \
  --m 12,16,24,32,64 --no-floor --no-cublaslt > /dev/null 2>&1
cat $S
for f in $R/tl_*_m*.txt; do echo "== $f"; sed -n '1p;7,10p' $f; done
cat $R/P64_ab.md $R/P8_ab.md
for f in $R/*.log $R/*.txt $R/*.jsonl; do [ -f $f ] && [ $(stat -c %s $f) -gt 30000 ] && gzip -9 -n $f; done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
