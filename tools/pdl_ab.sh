#!/usr/bin/env bash
# What programmatic dependent launch is worth: the decode shapes with BLOCKFP8_PDL=1 and =0, twice
# each, interleaved, on one machine (the lent machines drift between runs by more than the effect).
# Usage: OUT=dir bash tools/pdl_ab.sh [build-dir]   -> $OUT/pdl_ab.md
set -u
BUILD=${1:-build}
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
B=$BUILD/bench/blockfp8-bench
ARGS="--shape 2112,7168 --shape 6144,7168 --shape 36864,7168 --shape 576,7168 --shape 32768,512
      --m 1,8,32 --no-cublaslt --no-bf16a --no-constw --no-check"
for rep in 1 2; do
  for pdl in 1 0; do
    BLOCKFP8_PDL=$pdl timeout 120 "$B" $ARGS --json "$OUT/pdl${pdl}_$rep.jsonl" >/dev/null 2>&1 || echo "bench PDL=$pdl rep $rep failed"
  done
done
python3 - "$OUT" <<'PY' | tee "$OUT/pdl_ab.md"
import json, sys
out = sys.argv[1]
def load(p):
    try:
        return {(r["N"], r["K"], r["M"]): r["cold_us"] for r in map(json.loads, open(p))
                if r["backend"] == "blockfp8" and r.get("cold_us")}
    except OSError:
        return {}
runs = {(pdl, rep): load(f"{out}/pdl{pdl}_{rep}.jsonl") for pdl in (1, 0) for rep in (1, 2)}
print("| N x K | M | PDL on µs (runs 1, 2) | PDL off µs (runs 1, 2) | on / off |")
print("|---|---:|---|---|---:|")
for key in sorted(runs[(1, 1)]):
    on = [runs[(1, r)].get(key) for r in (1, 2)]
    off = [runs[(0, r)].get(key) for r in (1, 2)]
    if None in on + off:
        continue
    print(f"| {key[0]}x{key[1]} | {key[2]} | {on[0]:.2f}, {on[1]:.2f} | {off[0]:.2f}, {off[1]:.2f} | "
          f"{(on[0] + on[1]) / (off[0] + off[1]):.3f} |")
PY
