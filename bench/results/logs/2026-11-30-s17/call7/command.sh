#!/usr/bin/env bash
# s17 call 7: is cuBLASLt power-capped at M = 4096 too, and how much work does each backend do a
# cycle of the clock the cap leaves? bench/probes/power_clock.py: blockfp8 (row- and column-major
# a_scales) and torch's block-scaled F.scaled_mm (cuBLASLt), each a CUDA graph replayed for 2 s while
# nvidia-smi samples every 20 ms.
set -u
R=$OUT/r; mkdir -p $R
export BLOCKFP8_LIBRARY=$PWD/build-dev/libblockfp8.so
timeout 150 python3 bench/probes/power_clock.py --m 4096 --seconds 2 > $R/power_clock.md 2>&1; echo "rc=$?"
cat $R/power_clock.md
tar -C $OUT -czf $OUT/call7.tgz r
