#!/usr/bin/env bash
# s23 call 8: what the wide sum's 1.2 us are. Call 6's NS (stores left out) also let the compiler drop the
# wait for the partials' loads (nothing used them), so it did not separate loads from stores. NL = C's
# timeline build with the loads left out (each quad stores a constant): timing only. Timelines of C and NL.
set -u
rm -rf build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
for spec in "7168 16384 64" "2112 7168 64" "4096 7168 64"; do
  set -- $spec
  for v in C NL; do
    BLOCKFP8_PDL=0 timeout 60 build-var/$v/decode_timeline $1 $2 $3 > $R/tl_${v}_${1}x${2}_m$3.txt 2>&1
    echo "timeline $v $spec rc=$?" >> $S
  done
done
cat $S
for f in $R/tl_*_m*.txt; do echo "== $f"; sed -n '1p;7,10p' $f; done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
