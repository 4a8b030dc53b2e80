#!/usr/bin/env bash
# s23 call 10: are the ~0.5 us the sum's C stores take (call 8's NL) a first touch of C's pages? Call 7's
# L2 prefetch changed nothing, but a prefetch may be dropped on a TLB miss. L = 590e8c2 with each math
# thread t < TN loading one word of C's row t of its tile (ld.global, result unused) as the tile starts,
# at every token tile; C = 590e8c2. Timelines; the dispatcher's picks L against C, interleaved.
set -u
rm -rf build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
for spec in "2112 7168 64" "2112 7168 32" "7168 16384 64"; do
  set -- $spec
  for v in C L; do
    BLOCKFP8_PDL=0 timeout 60 build-var/$v/decode_timeline $1 $2 $3 > $R/tl_${v}_${1}x${2}_m$3.txt 2>&1
    echo "timeline $v $spec rc=$?" >> $S
  done
done
ARGS=""
for s in 2112,7168 4096,7168 7168,16384 576,7168 7168,2048; do ARGS="$ARGS --shape $s"; done
OUT=$R bash tools/binary_ab.sh L build-var/L/blockfp8-bench build-var/C/blockfp8-bench $ARGS \
  --m 16,32,64 --no-floor --no-cublaslt > /dev/null 2>&1
cat $S
for f in $R/tl_*_m*.txt; do echo "== $f"; sed -n '1p;7,10p' $f; done
cat $R/L_ab.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
