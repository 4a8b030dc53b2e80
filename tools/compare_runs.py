#!/usr/bin/env python3
"""The headline figures of one benchmark run, and how they moved against another.

    python3 tools/compare_runs.py NEW.jsonl[.gz] [OLD.jsonl[.gz]]

For each run: the primary shape (2112x7168) by M; against cuBLASLt at M <= 256, M = 128-512 and
M = 1024-8192; distance from the floor at M <= 64; TFLOP/s at M = 4096 and 8192. With OLD, also the
point-by-point ratio (new / old) of the dispatcher's choice where both runs chose the same kernel
family, and the points that moved most. Runs on different days or machines drift by a few per cent:
an interleaved A/B (tools/binary_ab.sh) is the evidence for a change, this is the overview.
"""
import gzip
import json
import statistics
import sys


def load(path):
    # Committed runs are gzipped (bench/results/*.jsonl.gz) to keep the tree small; a fresh one is not.
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        rows = [json.loads(line) for line in f]
    floor = {(r["N"], r["K"]): r["cold_us"] for r in rows if r["backend"] == "floor"}
    lt = {(r["N"], r["K"], r["M"]): r["cold_us"] for r in rows if r["backend"] == "cublaslt" and r["cold_us"]}
    us = {(r["N"], r["K"], r["M"]): r for r in rows if r["backend"] == "blockfp8" and r["cold_us"]}
    commit = next((r.get("commit") for r in rows if r.get("commit")), "?")
    return commit, floor, lt, us


def headline(path):
    commit, floor, lt, us = load(path)
    out = {"commit": commit}
    prim = (2112, 7168)
    if prim in floor:
        print(f"## {commit}: 2112x7168 (floor {floor[prim]:.2f} us)")
        print("| M | config | us | x floor | x cuBLASLt |")
        print("|---:|---|---:|---:|---:|")
        for m in (1, 4, 16, 32, 64, 128, 256, 512, 1024, 4096):
            r = us.get(prim + (m,))
            if not r:
                continue
            x_lt = f"{r['cold_us'] / lt[prim + (m,)]:.2f}" if prim + (m,) in lt else "-"
            print(f"| {m} | `{r['config']}` | {r['cold_us']:.2f} | {r['cold_us'] / floor[prim]:.2f} | {x_lt} |")
    small = [k for k in us if k[2] <= 256 and k in lt]
    out["faster_than_lt_m256"] = (sum(us[k]["cold_us"] < lt[k] for k in small), len(small))
    near = [us[k]["cold_us"] / floor[k[:2]] for k in us if k[2] <= 64 and k[:2] in floor]
    if near:
        out["within_1.3_floor_m64"] = (sum(x <= 1.3 for x in near), len(near))
        out["geomean_floor_m64"] = statistics.geometric_mean(near)
    for lo, hi in ((128, 512), (1024, 8192)):
        ratios = sorted(us[k]["cold_us"] / lt[k] for k in us if lo <= k[2] <= hi and k in lt)
        if ratios:
            out[f"vs_lt_{lo}_{hi}"] = (sum(x > 1 for x in ratios), len(ratios), statistics.median(ratios), ratios[-1])
    for m in (4096, 8192):
        tf = sorted(us[k]["tflops"] for k in us if k[2] == m and us[k].get("tflops"))
        if tf:
            out[f"tflops_{m}"] = (tf[0], statistics.median(tf), tf[-1])
    return out, us


def summary_table(runs):
    print()
    print("| | " + " | ".join(f"`{o['commit']}`" for o in runs) + " |")
    print("|---|" + "---:|" * len(runs))
    rows = [
        ("faster than cuBLASLt, M <= 256", lambda o: "%d of %d" % o["faster_than_lt_m256"]),
        ("within 1.3x the floor, M <= 64", lambda o: "%d of %d" % o["within_1.3_floor_m64"]),
        ("geometric mean x floor, M <= 64", lambda o: "%.3f" % o["geomean_floor_m64"]),
        ("M = 128-512: slower than cuBLASLt / median / worst", lambda o: "%d of %d / %.2f / %.2f" % o["vs_lt_128_512"]),
        ("M = 1024-8192: slower than cuBLASLt / median / worst", lambda o: "%d of %d / %.2f / %.2f" % o["vs_lt_1024_8192"]),
        ("M = 4096: TFLOP/s min / median / max", lambda o: "%.0f / %.0f / %.0f" % o["tflops_4096"]),
        ("M = 8192: TFLOP/s min / median / max", lambda o: "%.0f / %.0f / %.0f" % o["tflops_8192"]),
    ]
    for name, fmt in rows:
        cells = []
        for o in runs:
            try:
                cells.append(fmt(o))
            except KeyError:
                cells.append("-")
        print(f"| {name} | " + " | ".join(cells) + " |")


def point_by_point(new_us, old_us):
    print()
    for family in ("swapab", "tiled"):
        keys = [k for k in new_us if k in old_us and new_us[k]["config"].startswith(family)
                and old_us[k]["config"].startswith(family)]
        if not keys:
            continue
        ratios = sorted((new_us[k]["cold_us"] / old_us[k]["cold_us"], k) for k in keys)
        gm = statistics.geometric_mean([r for r, _ in ratios])
        print(f"{family}: {len(keys)} points, geometric mean new/old {gm:.3f}, range {ratios[0][0]:.3f}-{ratios[-1][0]:.3f}")
        for r, k in ratios[:3] + ratios[-3:]:
            print(f"  {r:.3f}  {k[0]}x{k[1]} M={k[2]}  {old_us[k]['config']} -> {new_us[k]['config']}")


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    new, new_us = headline(sys.argv[1])
    runs = [new]
    if len(sys.argv) == 3:
        old, old_us = headline(sys.argv[2])
        runs = [old, new]
    summary_table(runs)
    if len(sys.argv) == 3:
        point_by_point(new_us, old_us)


if __name__ == "__main__":
    main()
