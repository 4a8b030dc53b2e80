#!/usr/bin/env bash
# s17 call 8: the tiled widths and cluster shapes at M = 4096 and 8192 on six DeepSeek shapes, with
# column-major a_scales, for the next dispatcher fit (call 7: cuBLASLt does 1.24x our work a cycle on
# 4096x7168 at the same power cap). One round a configuration (tools/tiled_sweep.sh).
set -u
R=$OUT/r; mkdir -p $R
printf '#!/bin/sh\nexec %s/build-dev/bench/blockfp8-bench --a-scale-col-major "$@"\n' "$PWD" > /tmp/colbench && chmod +x /tmp/colbench
OUT=$R SWEEP_M=4096,8192 SWEEP_ROUNDS=1 SWEEP_WIDTHS="96 128 144 160 176 192" SWEEP_CLUSTERS="1x1 2x1 1x2" \
  timeout 420 bash tools/tiled_sweep.sh /tmp/colbench 2112,7168 4096,7168 24576,7168 7168,2048 18432,7168 7168,16384
python3 tools/tiled_sweep_report.py $R/sweep_*.jsonl > $R/report.md 2>&1; echo "report rc=$?"; head -60 $R/report.md
tar -C $OUT -czf $OUT/call8.tgz r
