#!/usr/bin/env bash
# s28 call 11. How long the TMA decode kernel's exit cluster barrier waits once a CTA's own stores are issued:
# timelines (-DBLOCKFP8_TIMELINE=ON at 6d07217 + mark 18, the CTA's last consumer thread past its stores) of
# the dispatcher's plans on 2112x7168 at M = 16, 32, 64 and on 4096x7168 at M = 32.
set -u
rm -rf build-tl28 && tar -xJf build-carry/s28c11.tar.xz
R=$OUT/run; mkdir -p $R; T=build-tl28/decode_timeline
for m in 16 32 64; do timeout 60 $T 2112 7168 $m > $R/pick_2112_m$m.txt 2>&1; done
timeout 60 $T 4096 7168 32 > $R/pick_4096_m32.txt 2>&1
for f in $R/*.txt; do echo "== $(basename $f)"; grep -E 'plan|^entry|math done|parked|^stored|last consumer|^exit' $f; done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
