#!/usr/bin/env bash
# s19 call 12: is the scale prologue part of what wider token tiles cost on long K? The TMA decode
# kernel loads the a_scales of every token of its tile for its whole K slice before the first k-block
# (7168x16384 split 1: 128 k-blocks x (TN + 1) scales, 1152 loads at 8 tokens, 4224 at 32). Timelines
# (wip/timeline-late-sms's decode_timeline, PDL off) of the dispatcher's plans at M = 8, 16, 32, 64.
set -u
rm -rf build-tl-dev && tar -xJf build-carry/tl.tar.xz
R=$OUT/run; mkdir -p $R
for m in 8 16 32 64; do
  BLOCKFP8_PDL=0 timeout 60 build-tl-dev/decode_timeline 7168 16384 $m > $R/t$m.txt 2>&1
done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
