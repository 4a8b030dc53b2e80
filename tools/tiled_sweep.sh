#!/usr/bin/env bash
# Every tiled configuration (weight_rows x cluster) at each point, one bench process per shape, for
# fitting the tiled dispatcher (tools/tiled_sweep_report.py reads the JSON). Configurations at one point
# run back to back on the same buffers, so compare them within a point: the same configuration moves
# by up to ~12 % between processes with different buffer layouts (s9 call 3).
# Usage: OUT=dir [SWEEP_M=256,384,...] [SWEEP_CLUSTERS="1x1 2x1 1x2"] [SWEEP_REPLAYS=10] bash tools/tiled_sweep.sh BENCH N,K...
#   -> $OUT/sweep_<N>x<K>.jsonl (with cuBLASLt and the dispatcher's own choice at every point)
set -u
BENCH=$1
shift
OUT=${OUT:-$PWD/device-out}
M=${SWEEP_M:-256,384,512,640,1024,2048,4096}
mkdir -p "$OUT"
CFG=()
for r in 64 80 96 112 128 144 160 176 192; do
  for c in ${SWEEP_CLUSTERS:-1x1 2x1 1x2}; do CFG+=(--config "tiled_t128_r${r}_p0_c$c"); done
done
for shape in "$@"; do
  timeout 400 "$BENCH" --shape "$shape" --m "$M" --replays "${SWEEP_REPLAYS:-10}" --no-floor --no-bf16a --no-constw --no-check "${CFG[@]}" \
    --json "$OUT/sweep_${shape/,/x}.jsonl" >"$OUT/sweep_${shape/,/x}.txt" 2>&1 || echo "sweep $shape: rc=$?"
done
