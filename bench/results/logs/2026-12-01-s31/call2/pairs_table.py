#!/usr/bin/env python3
"""Per (N, K, M): every backend's cold_us (all rows; with --config-rounds the row carries the
rounds' min/max too), the median, sorted by median; the dispatcher's pick from its row's config."""
import json, statistics, sys, collections
for f in sys.argv[1:]:
    rows = [json.loads(l) for l in open(f) if l.strip()]
    print(f"### {f}: {len(rows)} rows")
    print("first row's keys:", list(rows[0].keys()))
    pts = collections.OrderedDict()
    for r in rows:
        pts.setdefault((r["N"], r["K"], r["M"]), collections.OrderedDict()).setdefault(r["backend"], []).append(r)
    for (n, k, m), bk in pts.items():
        pick = [r.get("config") for r in bk.get("blockfp8", [])]
        print(f"\nN={n} K={k} M={m}   dispatcher picked: {', '.join(pick) if pick else '?'}")
        print("| backend | cold_us (rows) | rounds min..max | graphs | median cold_us | / pick |")
        print("|---|---|---|---:|---:|---:|")
        med = {b: statistics.median(r["cold_us"] for r in rs) for b, rs in bk.items()}
        ref = med.get("blockfp8")
        for b in sorted(bk, key=lambda b: med[b]):
            rs = bk[b]
            vals = ", ".join(f"{r['cold_us']:.2f}" for r in rs)
            mm = ", ".join(f"{r['cold_min_us']:.2f}..{r['cold_max_us']:.2f}" if r.get("cold_min_us") is not None else "-" for r in rs)
            g = ",".join(str(r.get("graphs", "-")) for r in rs)
            rel = f"{med[b]/ref:.3f}" if ref else "-"
            err = "".join(f" ERROR={r['error']}" for r in rs if r.get("error"))
            print(f"| {b} | {vals} | {mm} | {g} | {med[b]:.2f} | {rel} |{err}")
    print()
