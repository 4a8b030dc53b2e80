#!/usr/bin/env bash
# s18 call 5: timelines of 2112x7168 at M = 16 with the owner's sum and the pulled sum
# (BLOCKFP8_DECODE_LEAD=-1), at M = 32 (pulled), and the floor kernel, PDL on and off.
set -u
R=$OUT/run; mkdir -p $R
TL=build-dev/bench/decode_timeline
for pdl in 1 0; do
  BLOCKFP8_PDL=$pdl timeout 30 $TL 2112 7168 16 > $R/t16_owner_pdl$pdl.txt 2>&1
  BLOCKFP8_PDL=$pdl BLOCKFP8_DECODE_LEAD=-1 timeout 30 $TL 2112 7168 16 > $R/t16_pulled_pdl$pdl.txt 2>&1
  BLOCKFP8_PDL=$pdl timeout 30 $TL 2112 7168 32 > $R/t32_pulled_pdl$pdl.txt 2>&1
  BLOCKFP8_PDL=$pdl timeout 30 $TL 2112 7168 floor > $R/floor_pdl$pdl.txt 2>&1
done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
