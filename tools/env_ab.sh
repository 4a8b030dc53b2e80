#!/usr/bin/env bash
# What a diagnostic switch is worth: blockfp8-bench with VAR=1 and VAR=0, twice each, interleaved, on
# one machine (the lent machines drift between runs by more than most effects). Compares the
# dispatcher's blockfp8 backend point by point.
# Usage: OUT=dir bash tools/env_ab.sh build-dir VAR bench-args...   -> $OUT/<VAR>_ab.md
#   e.g. OUT=out bash tools/env_ab.sh build-dev BLOCKFP8_FUSED --shape 2112,7168 --m 1,4 --no-cublaslt
set -u
BUILD=$1 VAR=$2
shift 2
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
B=$BUILD/bench/blockfp8-bench
for rep in 1 2; do
  for v in 1 0; do
    env "$VAR=$v" timeout 300 "$B" "$@" --no-bf16a --no-constw --no-check --json "$OUT/${VAR}${v}_$rep.jsonl" >/dev/null 2>&1 ||
      echo "bench $VAR=$v rep $rep failed"
  done
done
python3 - "$OUT" "$VAR" <<'PY' | tee "$OUT/${VAR}_ab.md"
import json, sys
out, var = sys.argv[1], sys.argv[2]
def load(p):
    try:
        return {(r["N"], r["K"], r["M"]): r["cold_us"] for r in map(json.loads, open(p))
                if r["backend"] == "blockfp8" and r.get("cold_us")}
    except OSError:
        return {}
runs = {(v, rep): load(f"{out}/{var}{v}_{rep}.jsonl") for v in (1, 0) for rep in (1, 2)}
print(f"| N x K | M | {var}=1 µs (runs 1, 2) | {var}=0 µs (runs 1, 2) | on / off |")
print("|---|---:|---|---|---:|")
for key in sorted(runs[(1, 1)]):
    on = [runs[(1, r)].get(key) for r in (1, 2)]
    off = [runs[(0, r)].get(key) for r in (1, 2)]
    if None in on + off:
        continue
    print(f"| {key[0]}x{key[1]} | {key[2]} | {on[0]:.2f}, {on[1]:.2f} | {off[0]:.2f}, {off[1]:.2f} | "
          f"{(on[0] + on[1]) / (off[0] + off[1]):.3f} |")
PY
