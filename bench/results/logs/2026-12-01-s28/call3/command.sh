#!/usr/bin/env bash
# s28 call 3. Timelines (-DBLOCKFP8_TIMELINE=ON build of 4177fc9 + TIMELINE_CONFIG) of the unsplit 16-row plan
# against the dispatcher's pick on 2112x7168 at M = 16 and 1: call 2 found the unsplit plan's math adds
# ~3.6 us to the ring's time instead of hiding under it.
set -u
rm -rf build-tl28 && tar -xJf build-carry/s28c3.tar.xz
R=$OUT/run; mkdir -p $R; T=build-tl28/decode_timeline
for m in 16 1; do
  timeout 60 $T 2112 7168 $m > $R/pick_m$m.txt 2>&1
done
TIMELINE_CONFIG=swapab_r16_t16_s1_w2_k4_p0 timeout 60 $T 2112 7168 16 > $R/r16_t16_k4_m16.txt 2>&1
TIMELINE_CONFIG=swapab_r16_t16_s1_w2_k2_p0 timeout 60 $T 2112 7168 16 > $R/r16_t16_k2_m16.txt 2>&1
TIMELINE_CONFIG=swapab_r16_t8_s1_w2_k4_p0 timeout 60 $T 2112 7168 1 > $R/r16_t8_k4_m1.txt 2>&1
TIMELINE_CONFIG=swapab_r64_t8_s3_w2_k2_p0 timeout 60 $T 2112 7168 1 > $R/r64_t8_m1.txt 2>&1
timeout 60 $T 2112 7168 floor > $R/floor.txt 2>&1
tar -C $OUT -czf $OUT/run.tgz run
cat $R/*.txt
