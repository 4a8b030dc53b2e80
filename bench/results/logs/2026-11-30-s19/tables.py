#!/usr/bin/env python3
"""Derived tables of the nineteenth session's calls 2, 3 and 5: python3 tables.py > tables.md (run here)."""
import collections, gzip, json, statistics


def load(p):
    op = gzip.open if p.endswith('.gz') else open
    return [json.loads(l) for l in op(p, 'rt')]


def floors(rows):
    f = {}
    for r in rows:
        if r['backend'] == 'floor':
            f.setdefault((r['N'], r['K']), r['cold_us'])
    return f


print("# Session 19: derived tables (tables.py over the call directories' JSON)\n")
print("## Call 2: forced token tiles (64-row tiles, stages p0 = default), cold time / floor\n")
rows = load('call2/run/tokens.jsonl.gz'); fl = floors(rows)
t = collections.defaultdict(dict)
for r in rows:
    if r['backend'].startswith('blockfp8'):
        key = r['backend'].split(':')[1].split('_')[2] if ':' in r['backend'] else 'dispatcher'
        t[(r['N'], r['K'])].setdefault(key, {})[r['M']] = r['cold_us'] / fl[(r['N'], r['K'])]
print("| weight | tile | M = 1 | 8 | 16 | 32 |\n|---|---|---:|---:|---:|---:|")
for s, v in t.items():
    for k in ['dispatcher', 't8', 't16', 't32', 't64']:
        print(f"| {s[0]}x{s[1]} | {k} | " + " | ".join('%.3f' % v[k][m] for m in (1, 8, 16, 32)) + " |")
print("\n## Call 3: forced ring depths (stages p), cold µs and / floor\n")
rows = load('call3/run/stages.jsonl'); fl = floors(rows)
print("| weight | M | configuration | cold µs | / floor |\n|---|---:|---|---:|---:|")
for r in rows:
    if r['backend'].startswith('blockfp8'):
        print(f"| {r['N']}x{r['K']} | {r['M']} | {r['backend'].replace('blockfp8:', '')} | {r['cold_us']:.2f} | "
              f"{r['cold_us'] / fl[(r['N'], r['K'])]:.3f} |")
print("\n## Call 5: token boxes, forced configurations (old = c5f3caf full boxes, new = boxes of M rows, "
      "none = no token loads), means of the runs\n")
d = collections.defaultdict(lambda: collections.defaultdict(list))
for name in ['old_1', 'new_1', 'none_1', 'old_2', 'new_2']:
    for r in load(f'call5/run/{name}.jsonl'):
        if not r['backend'].startswith('blockfp8'):
            continue
        cfg = r['backend'].split(':')[1] if ':' in r['backend'] else 'dispatcher'
        d[(r['N'], r['K'], r['M'], cfg)][name.split('_')[0]].append(r['cold_us'])
print("| weight | M | configuration | old µs | new µs | none µs | new / old | none / old |\n"
      "|---|---:|---|---:|---:|---:|---:|---:|")
for k in sorted(d):
    v = d[k]; o = statistics.mean(v['old']); n = statistics.mean(v['new']); z = v['none'][0]
    print(f"| {k[0]}x{k[1]} | {k[2]} | {k[3]} | {o:.2f} | {n:.2f} | {z:.2f} | {n / o:.3f} | {z / o:.3f} |")
