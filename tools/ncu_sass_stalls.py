#!/usr/bin/env python3
"""Per-instruction warp-stall samples from ncu's SASS source page, for reading a kernel's hot loop.

On the device:  ncu --section SourceCounters -o rep ...  then
                ncu --import rep.ncu-rep --page source --print-source sass --csv > rep_sass.csv
Here:           python3 tools/ncu_sass_stalls.py rep_sass.csv [--min-exec N] [--top K]

Prints the sample totals by stall reason over the whole kernel, then every instruction executed at least
--min-exec times (default: a tenth of the most executed one's count, i.e. the loops) with its samples and
its top stall reasons, in address order.

--after-last OPCODE: also the totals by stall reason from the last executed instruction whose text starts
with OPCODE up to the next one (or the end); --nth-from-end n starts at the n-th from the end instead.
E.g. `--after-last UCGABAR_WAIT --nth-from-end 3` on the decode kernel: from the per-tile cluster barrier's
wait to the exit barrier's, the split-K tail (the twenty-third session's call 11).
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
    ap.add_argument("--after-last", help="sum the samples from an instruction starting with this opcode")
    ap.add_argument("--nth-from-end", type=int, default=1,
                    help="with --after-last: start at its n-th occurrence from the end, stop at the next")
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
    if a.after_last:
        hits = [i for i, r in enumerate(body)  # executed instructions only: a branch not taken has copies
                if r[idx["Source"]].strip().startswith(a.after_last) and num(r, "Instructions Executed") > 0]
        if len(hits) < a.nth_from_end:
            print(f"--after-last: {len(hits)} occurrences of {a.after_last}, fewer than {a.nth_from_end}")
            return 1
        start = hits[-a.nth_from_end]
        end = hits[-a.nth_from_end + 1] if a.nth_from_end > 1 else len(body)
        part = body[start:end]
        sub = sum(num(r, "Warp Stall Sampling (All Samples)") for r in part)
        reasons = {c: sum(num(r, c) for r in part) for c in stall_cols}
        print(f"from {body[start][idx['Address']][-5:]} ({a.after_last}) to {body[end - 1][idx['Address']][-5:]}: "
              f"{sub} samples ({100 * sub / max(total, 1):.1f}% of the kernel's): " + " ".join(
                  f"{c[6:]}={v}" for c, v in sorted(reasons.items(), key=lambda kv: -kv[1]) if v))
    return 0


if __name__ == "__main__":
    sys.exit(main())
