#!/usr/bin/env bash
# What a tiled-kernel change does to one k-block: the slope of time against K at one tile an SM
# (2112 x K at M = 256, K = 4096 and 16384: 22 CTAs of 192 rows or 34 of 128, 32 and 128 k-blocks
# each), which leaves out the launch, the first loads and the epilogue; and the dispatcher's pick at
# M = 4096 (many tiles an SM, power-limited). Each build twice, interleaved (s16 calls 7-12).
# Usage: OUT=dir [SLOPE_ROWS="192 128"] [BIG_SHAPES="2112,7168 4096,7168"] \
#          bash tools/tiled_slope_ab.sh NAME:BENCH NAME:BENCH...   (the first is the reference)
#   -> $OUT/slope_NAME_REP.jsonl, $OUT/big_NAME_REP.jsonl, and the table (tools/tiled_slope_table.py)
set -u
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
CFG=()
for r in ${SLOPE_ROWS:-192 128}; do CFG+=(--config "tiled_t128_r${r}_p0_c1x1"); done
BIG=()
for s in ${BIG_SHAPES:-2112,7168 4096,7168}; do BIG+=(--shape "$s"); done
COMMON=(--no-cublaslt --no-floor --no-check --no-bf16a --no-constw --settle-ms 100 --replays 10)
for rep in 1 2; do
  for nb in "$@"; do
    name=${nb%%:*} bench=${nb#*:}
    timeout 100 "$bench" --shape 2112,4096 --shape 2112,16384 --m 256 "${CFG[@]}" "${COMMON[@]}" \
      --json "$OUT/slope_${name}_$rep.jsonl" >/dev/null 2>&1 || echo "slope $name $rep: rc=$?"
    timeout 100 "$bench" "${BIG[@]}" --m 4096 "${COMMON[@]}" --json "$OUT/big_${name}_$rep.jsonl" >/dev/null 2>&1 ||
      echo "big $name $rep: rc=$?"
  done
done
python3 "$(dirname "$0")/tiled_slope_table.py" "$OUT" "${@%%:*}" | tee "$OUT/slope_table.md"
