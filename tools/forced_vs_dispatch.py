#!/usr/bin/env python3
"""Forced configurations against the dispatcher's choice, point by point, from one bench run.

    python3 tools/forced_vs_dispatch.py [--floor RUN.jsonl[.gz]] RUN.jsonl[.gz] ...

A run made with `blockfp8-bench --config NAME ...` (or --paths) times each forced configuration
(backend "blockfp8:NAME") beside the dispatcher's (backend "blockfp8") in the same process. For each
(N, K, M) this prints the dispatcher's time and configuration, its multiple of the streaming floor
(taken from --floor, a run with floor rows, where the run itself has none), and every forced
configuration's time over the dispatcher's, best first: below 1 is a point the dispatcher loses.
A forced configuration that runs as the dispatcher's pick (the row's runs_as, which the bench records
since the thirty-second session) is marked "=pick": it measures the noise, not another kernel. The last
line counts the points whose best other kernel is within 5 % of the pick (forced rows without runs_as,
from older runs, all count as other kernels).
"""
import gzip
import json
import sys
from collections import defaultdict


def rows(path):
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        return [json.loads(line) for line in f if line.strip()]


args = sys.argv[1:]
floors = {}
if args[:1] == ["--floor"]:
    floors = {(r["N"], r["K"]): r["cold_us"] for r in rows(args[1]) if r["backend"] == "floor"}
    args = args[2:]
for path in args:
    run = rows(path)
    floors.update({(r["N"], r["K"]): r["cold_us"] for r in run if r["backend"] == "floor"})
    points = defaultdict(dict)
    for r in run:
        if r["M"] > 0 and (r["backend"] == "blockfp8" or r["backend"].startswith("blockfp8:")):
            key = "DISPATCH" if r["backend"] == "blockfp8" else r["config"]
            points[(r["N"], r["K"], r["M"])][key] = (r.get("cold_us") or float("nan"), r.get("runs_as") or r["config"])
    print(path)
    within = total = 0
    for (n, k, m), v in sorted(points.items(), key=lambda kv: (kv[0][0] * kv[0][1], kv[0][2])):
        if "DISPATCH" not in v:
            continue
        t, cfg = v["DISPATCH"]
        fl = floors.get((n, k), float("nan"))
        forced = sorted((u / t, c + ("=pick" if runs == cfg else "")) for c, (u, runs) in v.items() if c != "DISPATCH")
        others = [x for x, c in forced if not c.endswith("=pick")]
        total += 1
        within += not others or min(others) >= 0.95
        print(f"{n:>6}x{k:<6} M={m:<3} floor {fl:5.2f} dispatch {t:6.2f} ({t / fl:.2f}x) {cfg:<28}",
              "  ".join(f"{c}:{x:.3f}" for x, c in forced))
    print(f"the pick within 5 % of every other kernel at {within} of {total} points")
