#!/usr/bin/env bash
# s26 call 9 (build-dev = 101867e; kernels as 2fd704c): the seventeenth session's call 7 again after the
# descriptors moved to uniform registers. bench/probes/power_clock.py at M = 4096: blockfp8 (row- and column-
# major a_scales) and torch's block-scaled F.scaled_mm (cuBLASLt), each a CUDA graph replayed for 2 s while
# nvidia-smi samples every 20 ms: the clock the power cap leaves each, and the work each does a cycle.
set -u
rm -rf build-dev && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R
export BLOCKFP8_LIBRARY=$PWD/build-dev/libblockfp8.so
timeout 150 python3 bench/probes/power_clock.py --m 4096 --seconds 2 > $R/power_clock.md 2>&1; echo "rc=$?" >> $R/power_clock.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
