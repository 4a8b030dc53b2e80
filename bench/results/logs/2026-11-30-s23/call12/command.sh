#!/usr/bin/env bash
# s23 call 12. Call 11's ncu source counters put the wide sum's four runtime divisions (a thread's quad
# range and its walk) after the cluster barrier, about 10 % of the tail's samples. W = 4e5b46a with those
# divisions worked out before the cluster barrier (QuadWalk), 64/128-token instances only; C = 4e5b46a.
# Timelines; the dispatcher's picks W against C, interleaved.
set -u
rm -rf build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
for spec in "2112 7168 64" "7168 16384 64" "4096 7168 64"; do
  set -- $spec
  for v in C W; do
    BLOCKFP8_PDL=0 timeout 60 build-var/$v/decode_timeline $1 $2 $3 > $R/tl_${v}_${1}x${2}_m$3.txt 2>&1
    echo "timeline $v $spec rc=$?" >> $S
  done
done
ARGS=""
for s in 2112,7168 4096,7168 4608,7168 7168,16384 576,7168 7168,2048 3072,1536 1536,7168 7168,4608; do ARGS="$ARGS --shape $s"; done
OUT=$R bash tools/binary_ab.sh W build-var/W/blockfp8-bench build-var/C/blockfp8-bench $ARGS \
  --m 40,48,64,96,128 --no-floor --no-cublaslt > /dev/null 2>&1
cat $S
for f in $R/tl_*_m*.txt; do echo "== $f"; sed -n '1p;7,10p' $f; done
cat $R/W_ab.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
