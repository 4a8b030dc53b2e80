#!/usr/bin/env bash
# s19 call 9: are the late SMs of call 1 a property of the SM or of the kernel's load? Per-SM lateness
# over 20 calls (wip/timeline-late-sms's decode_timeline, PDL off) on 2112x7168 for the floor again,
# the warp-MMA kernel at M = 1 (132 CTAs, one an SM), the TMA decode kernel at M = 16 again (99 CTAs)
# and at M = 32.
set -u
rm -rf build-tl-dev && tar -xJf build-carry/tl.tar.xz
R=$OUT/run; mkdir -p $R
TL=build-tl-dev/decode_timeline
for m in floor 1 16 32; do
  BLOCKFP8_PDL=0 TIMELINE_REPEATS=20 timeout 60 $TL 2112 7168 $m > $R/late_$m.txt 2>&1
done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
