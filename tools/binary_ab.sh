#!/usr/bin/env bash
# What a code change is worth: two builds of blockfp8-bench (the bench links the library statically),
# twice each, interleaved on one machine (the lent machines drift between runs by more than most
# effects). Compares the dispatcher's blockfp8 backend point by point.
# Usage: OUT=dir bash tools/binary_ab.sh NAME new-bench old-bench bench-args...   -> $OUT/NAME_ab.md
#   e.g. OUT=out bash tools/binary_ab.sh relaxed build-dev/bench/blockfp8-bench old/blockfp8-bench \
#          --shape 2112,7168 --m 1,4 --no-cublaslt
set -u
NAME=$1 NEW=$2 OLD=$3
shift 3
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
for rep in 1 2; do
  for side in new old; do
    bin=$NEW
    [ "$side" = old ] && bin=$OLD
    timeout 300 "$bin" "$@" --no-bf16a --no-constw --no-check --json "$OUT/${NAME}_${side}_$rep.jsonl" >/dev/null 2>&1 ||
      echo "bench $side rep $rep failed"
  done
done
python3 "$(dirname "$0")/ab_table.py" new old "$OUT/${NAME}_new_1.jsonl" "$OUT/${NAME}_new_2.jsonl" \
  "$OUT/${NAME}_old_1.jsonl" "$OUT/${NAME}_old_2.jsonl" | tee "$OUT/${NAME}_ab.md"
