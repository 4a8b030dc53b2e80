"""The comparison table of tools/env_ab.sh and tools/binary_ab.sh: the dispatcher's blockfp8 backend (or
AB_BACKEND's) point by point, two runs of each side, interleaved on one machine.

Usage: python3 tools/ab_table.py A_LABEL B_LABEL A1.jsonl A2.jsonl B1.jsonl B2.jsonl
AB_BACKEND=NAME compares that backend instead (e.g. blockfp8_bf16a, blockfp8_quant_gemm).
With AB_PATHS=1 in the environment, every forced configuration too (--paths, --sweep, --config: the
backends named blockfp8:CONFIG and blockfp8_constw:CONFIG), one row each; where the two builds'
dispatchers choose differently, these compare like with like.
"""
import json
import os
import sys

PATHS = os.environ.get("AB_PATHS") == "1"
BACKEND = os.environ.get("AB_BACKEND", "blockfp8")


def load(path):
    def wanted(r):
        return r.get("cold_us") and (r["backend"] == BACKEND or (PATHS and ":" in r["backend"]))
    try:
        return {(r["N"], r["K"], r["M"], "" if r["backend"] == BACKEND else r["backend"]): r["cold_us"]
                for r in map(json.loads, open(path)) if wanted(r)}
    except OSError:
        return {}


def main(argv):
    a_label, b_label = argv[1], argv[2]
    a = [load(p) for p in argv[3:5]]
    b = [load(p) for p in argv[5:7]]
    path_col = " path |" if PATHS else ""
    print(f"| N x K | M |{path_col} {a_label} µs (runs 1, 2) | {b_label} µs (runs 1, 2) | {a_label} / {b_label} |")
    print("|---|---:|" + ("---|" if PATHS else "") + "---|---|---:|")
    for key in sorted(a[0]):
        x = [run.get(key) for run in a]
        y = [run.get(key) for run in b]
        if None in x + y:
            continue
        path = f" {key[3] or 'dispatcher'} |" if PATHS else ""
        print(f"| {key[0]}x{key[1]} | {key[2]} |{path} {x[0]:.2f}, {x[1]:.2f} | {y[0]:.2f}, {y[1]:.2f} | "
              f"{(x[0] + x[1]) / (y[0] + y[1]):.3f} |")


if __name__ == "__main__":
    main(sys.argv)
