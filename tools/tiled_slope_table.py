#!/usr/bin/env python3
"""The table of tools/tiled_slope_ab.sh: per build, the k-block slope (ns and cycles at 1.98 GHz) and
the fixed part of each forced width, then the dispatcher's M = 4096 times as ratios to the first build.
Usage: python3 tools/tiled_slope_table.py DIR NAME NAME...   (reads DIR/slope_NAME_*.jsonl[.gz])"""
import collections
import glob
import gzip
import json
import statistics
import sys


def rows(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return [json.loads(line) for line in f if line.strip()]


def main() -> int:
    out, names = sys.argv[1], sys.argv[2:]
    slope = collections.defaultdict(list)
    big = collections.defaultdict(list)
    for name in names:
        for f in glob.glob(f"{out}/slope_{name}_*.jsonl*"):
            for r in rows(f):
                if ":" in r["backend"]:
                    slope[(name, r["backend"].split(":", 1)[1], r["K"])].append(r["cold_us"])
        for f in glob.glob(f"{out}/big_{name}_*.jsonl*"):
            for r in rows(f):
                if r["backend"] == "blockfp8":
                    big[(name, r["N"], r["K"])].append(r["cold_us"])
    configs = sorted({c for (_, c, _) in slope})
    ks = sorted({k for (_, _, k) in slope})  # the two K the slopes were timed at
    if len(ks) != 2:
        print(f"expected slopes at two K, found {ks}")
        return 1
    k_short, k_long = ks
    print(f"| build | config | K = {k_short} µs | K = {k_long} µs | ns a k-block | cycles (1.98 GHz) | fixed µs |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for c in configs:
        for name in names:
            a, b = slope.get((name, c, k_short)), slope.get((name, c, k_long))
            if not a or not b:
                continue
            ta, tb = statistics.median(a), statistics.median(b)
            ns = (tb - ta) / ((k_long - k_short) // 128) * 1000
            fixed = ta - (k_short // 128) * ns / 1000
            print(f"| {name} | {c} | {ta:.2f} | {tb:.2f} | {ns:.1f} | {ns * 1.98:.0f} | {fixed:.2f} |")
    shapes = sorted({(n, k) for (_, n, k) in big})
    print()
    print("| build | " + " | ".join(f"{n}×{k} M = 4096" for n, k in shapes) + " |")
    print("|---|" + "---:|" * len(shapes))
    for name in names:
        cells = []
        for n, k in shapes:
            t, ref = big.get((name, n, k)), big.get((names[0], n, k))
            cells.append(f"{statistics.median(t):.2f} ({statistics.median(t) / statistics.median(ref):.3f})"
                         if t and ref else "-")
        print(f"| {name} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
