#!/usr/bin/env python3
"""Where a benchmark run is slower at a smaller M than at a larger one on the same weight: candidate
dispatcher misses. The larger M's plan is nearly an upper bound for the smaller M (exactly for the tiled
kernel, which loads no token rows past M), so such a pair says that the smaller M's plan may be the
wrong kernel or tile. Each was worth forcing (--config ... --config-rounds 3) in the twenty-fifth
session: three rules of tiled_wins came from this list.

    python3 tools/dispatch_inversions.py RUN.jsonl[.gz] [--max-m 1024] [--margin 1.02]

Prints one row per (weight, smaller M): its time and plan, and the larger M with the lowest time that
beats it by more than the margin, with that plan.
"""
import argparse
import gzip
import json
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return [json.loads(line) for line in f]


def inversions(rows, max_m=1024, margin=1.02):
    """[(N, K, M, us, config, larger M, its us, its config)], sorted by weight and M."""
    by_shape = {}
    for r in rows:
        if r.get("backend") == "blockfp8" and r.get("cold_us") and 0 < r["M"] <= max_m:
            by_shape.setdefault((r["N"], r["K"]), {})[r["M"]] = (r["cold_us"], r.get("config", ""))
    out = []
    for (n, k), points in sorted(by_shape.items()):
        for m, (us, cfg) in sorted(points.items()):
            larger = [(t, m2, c) for m2, (t, c) in points.items() if m2 > m and us > t * margin]
            if larger:
                t, m2, c = min(larger)
                out.append((n, k, m, us, cfg, m2, t, c))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run")
    ap.add_argument("--max-m", type=int, default=1024)
    ap.add_argument("--margin", type=float, default=1.02)
    a = ap.parse_args(argv)
    rows = inversions(load(a.run), a.max_m, a.margin)
    print("| N x K | M | us | plan | faster larger M | its us | its plan |")
    print("|---|---:|---:|---|---:|---:|---|")
    for n, k, m, us, cfg, m2, t, c in rows:
        print(f"| {n}x{k} | {m} | {us:.2f} | {cfg} | {m2} | {t:.2f} | {c} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
