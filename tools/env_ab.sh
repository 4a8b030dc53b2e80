#!/usr/bin/env bash
# What a diagnostic switch is worth: blockfp8-bench with VAR=1 and VAR=0 (or the two values in
# AB_VALUES, new first), twice each, interleaved, on one machine (the lent machines drift between
# runs by more than most effects). Compares the dispatcher's blockfp8 backend point by point.
# Usage: OUT=dir [AB_VALUES="4 2"] bash tools/env_ab.sh build-dir VAR bench-args...   -> $OUT/<VAR>_ab.md
#   e.g. OUT=out bash tools/env_ab.sh build-dev BLOCKFP8_FUSED --shape 2112,7168 --m 1,4 --no-cublaslt
# AB_BACKEND=blockfp8_bf16a (or blockfp8_quant_gemm): time the bf16-activation backends too and compare
# that one (tools/ab_table.py).
set -u
BUILD=$1 VAR=$2
shift 2
OUT=${OUT:-$PWD/device-out}
read -r NEW OLD <<<"${AB_VALUES:-1 0}"
mkdir -p "$OUT"
BF16A=--no-bf16a
case "${AB_BACKEND:-blockfp8}" in blockfp8_bf16a | blockfp8_quant_gemm) BF16A= ;; esac
B=$BUILD/bench/blockfp8-bench
for rep in 1 2; do
  for v in "$NEW" "$OLD"; do
    env "$VAR=$v" timeout 300 "$B" "$@" $BF16A --no-constw --no-check --json "$OUT/${VAR}${v}_$rep.jsonl" >/dev/null 2>&1 ||
      echo "bench $VAR=$v rep $rep failed"
  done
done
python3 "$(dirname "$0")/ab_table.py" "$VAR=$NEW" "$VAR=$OLD" "$OUT/${VAR}${NEW}_1.jsonl" "$OUT/${VAR}${NEW}_2.jsonl" \
  "$OUT/${VAR}${OLD}_1.jsonl" "$OUT/${VAR}${OLD}_2.jsonl" | tee "$OUT/${VAR}_ab.md"
