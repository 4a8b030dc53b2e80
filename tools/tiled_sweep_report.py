#!/usr/bin/env python3
"""Reads tools/tiled_sweep.sh output: per point, the dispatcher's tiled choice against the best forced
tiled configuration measured there, and cuBLASLt. With --fit, also grid-searches the constants of the
tiled cost model (a copy of src/dispatch_tiled.cpp's, kept in step by hand) for the fewest points
where the model's pick is more than 5 % slower than the best.

Usage: python3 tools/tiled_sweep_report.py [--fit] sweep_*.jsonl[.gz]
"""
import gzip
import itertools
import json
import math
import re
import sys
from collections import defaultdict

WIDTHS = [64, 80, 96, 112, 128, 144, 160, 176, 192]
SM_COUNT, MAX_CLUSTERS = 132, {1: 132, 2: 66, 4: 32}
CFG = re.compile(r"tiled_t128_r(\d+)_p\d+_c(\d)x(\d)(?:_k(\d))?")


def load(paths):
    """{(n, k, m): {"forced": {(rows, cm, cn): us}, "split": {(rows, cm, cn, k_split): us},
    "spread": [max / min over rounds], "auto": (name, us), "cublaslt": us}}"""
    pts = defaultdict(lambda: {"forced": {}, "split": {}, "spread": [], "auto": None, "cublaslt": None})
    for p in paths:
        for line in (gzip.open(p, "rt") if p.endswith(".gz") else open(p)):
            r = json.loads(line)
            if not r.get("M") or r.get("cold_us") is None:
                continue
            key = (r["N"], r["K"], r["M"])
            b = r["backend"]
            if b.startswith("blockfp8:"):
                mt = CFG.fullmatch(b.split(":", 1)[1])
                if mt and (mt.group(4) or "1") == "1":  # unsplit: (rows, cluster_m, cluster_n)
                    pts[key]["forced"][tuple(int(x) for x in mt.groups()[:3])] = r["cold_us"]
                elif mt:  # K split over a cluster: kept apart, the model above does not price it
                    pts[key]["split"][tuple(int(x) for x in mt.groups())] = r["cold_us"]
                if "cold_max_us" in r and r["cold_us"]:
                    pts[key]["spread"].append(r["cold_max_us"] / r["cold_min_us"])
            elif b == "blockfp8":
                pts[key]["auto"] = (r["config"], r["cold_us"])
            elif b == "cublaslt":
                pts[key]["cublaslt"] = r["cold_us"]
    return {k: v for k, v in pts.items() if v["forced"]}


def cdiv(a, b):
    return -(-a // b)


def scale_step(rows):  # src/dispatch_tiled.h's tiled_scale_step
    return min(rows & -rows, 128)


def scale_blocks(rows):
    return 3 if rows - scale_step(rows) > 128 else 2


def straddles(rows):  # a tile's columns can fall in two 128-row b_scale blocks
    return scale_step(rows) < rows


def cost(m, n, rows, cm, cn, p):
    units = cdiv(cdiv(max(m, 1), 128), cm) * cdiv(cdiv(n, rows), cn)
    rounds = cdiv(units, MAX_CLUSTERS[cm * cn])
    width = 1.0
    if rounds > 1:  # several rounds: the busiest cluster's and the mean, weighted (power-limited GPU)
        rounds = (1 - p["avg"]) * rounds + p["avg"] * units / MAX_CLUSTERS[cm * cn]
        width = p["three"] if scale_blocks(rows) > 2 else 1.0
    if cm > 1:
        shared = p["pair_m"] if m > 128 else 1.0  # a pair over one token tile has a CTA past M
    else:
        shared = (p["along_n1"] if m <= 128 else p["along_n"]) if cn > 1 else 1.0
    return rounds * (rows + p["fixed"] + (p["straddle"] if straddles(rows) else 0.0)) * width * shared


def choose(m, n, p, clusters=((1, 1), (2, 1), (1, 2))):
    best = None
    for rows in reversed(WIDTHS):
        for cm, cn in clusters:
            c = cost(m, n, rows, cm, cn, p)
            if best is None or c < best[0]:
                best = (c, (rows, cm, cn))
    return best[1]


def score(pts, p):
    ratios = []
    for (n, k, m), v in pts.items():
        pick = choose(m, n, p)
        if pick not in v["forced"]:
            continue
        ratios.append(v["forced"][pick] / min(v["forced"].values()))
    gm = math.exp(sum(map(math.log, ratios)) / len(ratios))
    return sum(r > 1.05 for r in ratios), gm, max(ratios), len(ratios)


# src/dispatch_tiled.cpp's constants (pairs along N past one token tile are not candidates there; a
# factor of 1 with single CTAs first has the same effect here).
CURRENT = {"fixed": 80.0, "three": 1.08, "avg": 0.5, "pair_m": 0.95, "along_n": 1.0, "along_n1": 0.90, "straddle": 17.0}


def main():
    fit = "--fit" in sys.argv
    pts = load([a for a in sys.argv[1:] if not a.startswith("--")])
    print("| N x K | M | dispatcher | µs | best forced | µs | dispatcher / best | cuBLASLt µs | best / cuBLASLt |")
    print("|---|---:|---|---:|---|---:|---:|---:|---:|")
    over, ratios = 0, []
    for (n, k, m) in sorted(pts):
        v = pts[(n, k, m)]
        (rows, cm, cn), best = min(v["forced"].items(), key=lambda kv: kv[1])
        auto = v["auto"] or ("-", float("nan"))
        r = auto[1] / best
        ratios.append(r)
        over += r > 1.05
        lt = v["cublaslt"]
        print(f"| {n}x{k} | {m} | {auto[0]} | {auto[1]:.1f} | r{rows} c{cm}x{cn} | {best:.1f} | {r:.3f} | "
              f"{lt if lt is None else f'{lt:.1f}'} | {'-' if lt is None else f'{best / lt:.3f}'} |")
    if ratios:
        gm = math.exp(sum(map(math.log, ratios)) / len(ratios))
        print(f"\nDispatcher within 5 % of the best forced tiled configuration at {len(ratios) - over} of "
              f"{len(ratios)} points; geometric mean {gm:.3f}, worst {max(ratios):.3f}.")
    print(f"The model as in this script ({CURRENT}): {score(pts, CURRENT)} (points over 5 %, geomean, worst, points whose pick the sweep timed)")
    spread = sorted(x for v in pts.values() for x in v["spread"])
    if spread:  # --config-rounds: max / min cold time of one configuration over its graphs
        print(f"Per-configuration spread over rounds (max / min): median {spread[len(spread) // 2]:.3f}, "
              f"90th percentile {spread[int(0.9 * (len(spread) - 1))]:.3f}, worst {spread[-1]:.3f}")
    splits = [(k, min(v["split"].values()) / min(v["forced"].values())) for k, v in sorted(pts.items()) if v["split"]]
    for (n, k, m), r in splits:
        print(f"split-K best / unsplit best at {n}x{k} M = {m}: {r:.3f}")
    if fit:
        best = None
        for fixed, three, pm, an in itertools.product(range(0, 161, 8), (1.0, 1.06, 1.12, 1.18, 1.25),
                                                      (0.8, 0.85, 0.9, 0.95, 1.0), (0.85, 0.9, 0.93, 0.96, 1.0, 1.04)):
            p = dict(CURRENT, fixed=float(fixed), three=three, pair_m=pm, along_n=an)
            s = score(pts, p)
            if best is None or (s[0], s[1]) < (best[0][0], best[0][1]):
                best = (s, p)
        print(f"Best fit: {best[1]} -> {best[0]}")


if __name__ == "__main__":
    main()
