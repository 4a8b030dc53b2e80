#!/usr/bin/env bash
# Every tiled configuration (weight_rows x cluster) at each point, one bench process per shape, for
# fitting the tiled dispatcher (tools/tiled_sweep_report.py reads the JSON). A tiled time moves with
# what ran just before it, and some graphs of one configuration run 7-25 % slow (s9 calls 9-11), so
# each configuration is timed SWEEP_ROUNDS times (default 3) in shuffled orders and its median kept
# (blockfp8-bench --config-rounds); SWEEP_SETTLE_MS (default 100, as the bench) is its --settle-ms. Three rounds take
# about three times as long: the 31-shape sweep of s9 call 6 took 142 s in one.
# Usage: OUT=dir [SWEEP_M=256,384,...] [SWEEP_WIDTHS="64 80 ... 192"] [SWEEP_CLUSTERS="1x1 2x1 1x2"]
#   [SWEEP_REPLAYS=10] [SWEEP_ROUNDS=3]
#   [SWEEP_SETTLE_MS=100] bash tools/tiled_sweep.sh BENCH N,K...
#   -> $OUT/sweep_<N>x<K>.jsonl (with cuBLASLt and the dispatcher's own choice at every point)
set -u
BENCH=$1
shift
OUT=${OUT:-$PWD/device-out}
M=${SWEEP_M:-256,384,512,640,1024,2048,4096}
mkdir -p "$OUT"
CFG=()
for r in ${SWEEP_WIDTHS:-64 80 96 112 128 144 160 176 192}; do
  for c in ${SWEEP_CLUSTERS:-1x1 2x1 1x2}; do CFG+=(--config "tiled_t128_r${r}_p0_c$c"); done
done
for shape in "$@"; do
  timeout 400 "$BENCH" --shape "$shape" --m "$M" --replays "${SWEEP_REPLAYS:-10}" --config-rounds "${SWEEP_ROUNDS:-3}" \
    --settle-ms "${SWEEP_SETTLE_MS:-100}" --no-floor --no-bf16a --no-constw --no-check "${CFG[@]}" \
    --json "$OUT/sweep_${shape/,/x}.jsonl" >"$OUT/sweep_${shape/,/x}.txt" 2>&1 || echo "sweep $shape: rc=$?"
done
