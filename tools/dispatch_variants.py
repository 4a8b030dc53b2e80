#!/usr/bin/env python3
"""Compare dispatcher variants on the device by forcing each one's picks where they differ.

    python3 tools/dispatch_variants.py plan OUT_DIR NAME=PICKS.txt NAME=PICKS.txt ...
    python3 tools/dispatch_variants.py analyse VARIANTS.txt RUN.jsonl[.gz] ...

PICKS.txt is what `blockfp8-pick-grid` prints for one build of the dispatcher ("N K M name" a line); the
first is the baseline. `plan` keeps the points where any two variants pick differently and writes
OUT_DIR/variants.txt (each variant's pick there) and OUT_DIR/bench_args.txt: one line a weight,
"N,K M_LIST --config NAME ...", every distinct pick at those points, for

    while read -r shape ms cfgs; do blockfp8-bench --shape $shape --m $ms --config-rounds 3 \\
        --no-bf16a --no-constw --no-cublaslt $cfgs --json run.jsonl; done < bench_args.txt

`analyse` reads such runs (forced rows: backend "blockfp8:NAME", keyed by the name they ran as, runs_as,
where the bench recorded it) and prints, point by point, each variant's pick's time over the best
configuration timed there, then per variant the geometric mean, the points within 5 % and the worst.
The thirty-third session chose the tiled split rule and the decode split term this way
(bench/results/logs/2026-12-02-s33/call1, call5).
"""
import collections
import gzip
import json
import math
import os
import sys


def read_picks(path):
    picks = {}
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) == 4 and not line.startswith("#"):
                picks[tuple(map(int, fields[:3]))] = fields[3]
    return picks


def plan(out_dir, specs):
    names, tables = [], []
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep or not name or any(c.isspace() for c in name):
            raise SystemExit(f"plan: want NAME=PICKS.txt, got {spec!r}")
        names.append(name)
        tables.append(read_picks(path))
    base = tables[0]
    for name, table in zip(names[1:], tables[1:]):
        if table.keys() != base.keys():
            raise SystemExit(f"plan: {name}'s grid has other points than {names[0]}'s")
    points = sorted(p for p in base if len({t[p] for t in tables}) > 1)
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "variants.txt"), "w") as f:
        f.write("# N K M " + " ".join(names) + "\n")
        for p in points:
            f.write(" ".join(map(str, p)) + " " + " ".join(t[p] for t in tables) + "\n")
    by_weight = collections.defaultdict(lambda: (set(), set()))
    for p in points:
        ms, cfgs = by_weight[p[:2]]
        ms.add(p[2])
        cfgs.update(t[p] for t in tables)
    with open(os.path.join(out_dir, "bench_args.txt"), "w") as f:
        for (n, k), (ms, cfgs) in sorted(by_weight.items()):
            f.write(f"{n},{k} {','.join(map(str, sorted(ms)))} " + " ".join(f"--config {c}" for c in sorted(cfgs)) + "\n")
    timings = sum(len(ms) * len(cfgs) for ms, cfgs in by_weight.values())
    print(f"{len(points)} points on {len(by_weight)} weights differ; {timings} forced timings a round")
    return 0


def read_run(paths):
    times = collections.defaultdict(dict)
    for path in paths:
        with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
            for line in f:
                if not line.strip():
                    continue
                r = json.loads(line)
                if r["backend"].startswith("blockfp8:") and r.get("cold_us"):
                    times[(r["N"], r["K"], r["M"])][r.get("runs_as") or r["config"]] = r["cold_us"]
    return times


def analyse(variants_path, runs):
    with open(variants_path) as f:
        header = f.readline().split()
        if header[:4] != ["#", "N", "K", "M"]:
            raise SystemExit(f"analyse: {variants_path} is not a variants.txt")
        names = header[4:]
        rows = [line.split() for line in f if line.strip()]
    times = read_run(runs)
    ratios = {name: [] for name in names}
    print(f"{'':<58}" + " ".join(f"{n:>7}" for n in names))
    for row in rows:
        point = tuple(map(int, row[:3]))
        timed = times.get(point)
        if not timed:
            print(f"{row[0]}x{row[1]} M={row[2]:<5} not timed")
            continue
        best_cfg = min(timed, key=timed.get)
        cells = []
        for name, cfg in zip(names, row[3:]):
            if cfg in timed:
                ratios[name].append(timed[cfg] / timed[best_cfg])
                cells.append(f"{timed[cfg] / timed[best_cfg]:7.3f}")
            else:
                cells.append(f"{'-':>7}")
        print(f"{row[0]}x{row[1]} M={row[2]:<5} best {timed[best_cfg]:7.2f} {best_cfg:<30}" + " ".join(cells))
    for name in names:
        x = ratios[name]
        if not x:
            print(f"{name}: no point timed")
            continue
        mean = math.exp(sum(map(math.log, x)) / len(x))
        print(f"{name}: {len(x)} points, geometric mean {mean:.4f} x the best, within 5 % at "
              f"{sum(v <= 1.05 for v in x)}, worst {max(x):.3f}")
    return 0


def main(argv):
    if len(argv) >= 4 and argv[1] == "plan":
        return plan(argv[2], argv[3:])
    if len(argv) >= 4 and argv[1] == "analyse":
        return analyse(argv[2], argv[3:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
