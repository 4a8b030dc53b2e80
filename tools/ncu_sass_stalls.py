#!/usr/bin/env python3
"""Per-instruction warp-stall samples from ncu's SASS source page, for reading a kernel's hot loop.

On the device:  ncu --section SourceCounters -o rep ...  then
                ncu --import rep.ncu-rep --page source --print-source sass --csv > rep_sass.csv
Here:           python3 tools/ncu_sass_stalls.py rep_sass.csv [--min-exec N] [--top K]

Prints the sample totals by stall reason over the whole kernel, then every instruction executed at least
--min-exec times (default: a tenth of the most executed one's count, i.e. the loops) with its samples and
its top stall reasons, in address order.
"""
import argparse
import csv
import signal
import sys


def main() -> int:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet when piped into head
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--min-exec", type=int, default=0)
    ap.add_argument("--top", type=int, default=2, help="stall reasons shown per instruction")
    a = ap.parse_args()
    with open(a.csv, newline="") as f:
        rows = list(csv.reader(f))
    head = next(i for i, r in enumerate(rows) if r and r[0] == "Address")
    cols = rows[head]
    idx = {c: i for i, c in enumerate(cols)}
    stall_cols = [c for c in cols if c.startswith("stall_") and "(Not Issued)" not in c]
    body = [r for r in rows[head + 1:] if len(r) == len(cols)]

    def num(r, c):
        try:
            return int(float(r[idx[c]]))
        except ValueError:
            return 0

    total = sum(num(r, "Warp Stall Sampling (All Samples)") for r in body)
    by_reason = {c: sum(num(r, c) for r in body) for c in stall_cols}
    print(f"samples {total}: " + " ".join(
        f"{c[6:]}={100 * v / max(total, 1):.1f}%" for c, v in sorted(by_reason.items(), key=lambda kv: -kv[1]) if v))
    most = max(num(r, "Instructions Executed") for r in body)
    floor = a.min_exec or most // 10
    for r in body:
        ex = num(r, "Instructions Executed")
        if ex < floor:
            continue
        s = num(r, "Warp Stall Sampling (All Samples)")
        top = sorted(((num(r, c), c[6:]) for c in stall_cols), reverse=True)[: a.top]
        why = ", ".join(f"{c} {v}" for v, c in top if v)
        print(f"{r[idx['Address']][-5:]} {s:6d} {ex:9d}  {r[idx['Source']].strip()[:60]:60s} {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
