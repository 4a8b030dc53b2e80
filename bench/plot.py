#!/usr/bin/env python3
"""Plots and a markdown results page from blockfp8-bench JSON Lines.

One PNG per (N, K): cold microseconds against M on log-log axes, a line per backend, the weight-
streaming floor and the empty-kernel cost drawn as horizontal references. The page (--md) has a
header (date, commit, GPU, command), a summary across shapes and a table per shape.

    python3 bench/plot.py results.jsonl --out-dir plots --md results.md --command "blockfp8-bench ..."
"""
import argparse
import gzip
import json
import math
import os
import sys
from collections import OrderedDict, defaultdict

DECODE_MAX_M = 256  # the summary's "decode" range: M up to here is bound by the weight read


def load(path, commit=None):
    """Rows keyed by (backend, config, N, K, M); a later line replaces an earlier one (re-runs append)."""
    rows = OrderedDict()
    opener = gzip.open if path.endswith(".gz") else open  # committed runs are gzipped
    with opener(path, "rt") as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                print(f"{path}:{lineno}: skipping malformed line", file=sys.stderr)
                continue
            if commit and r.get("commit") != commit:
                continue
            if r.get("shape") == "floor_gb":
                key = ("floor_gb", r.get("bytes"))
            else:
                key = (r.get("backend"), r.get("N"), r.get("K"), r.get("M"))
            rows[key] = r
    return list(rows.values())


def fmt(v, spec=".2f", none="-"):
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return none
    return format(v, spec)


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def by_shape(rows):
    shapes = OrderedDict()
    for r in rows:
        if r.get("shape") == "floor_gb":
            continue
        key = (r["N"], r["K"])
        s = shapes.setdefault(key, {"name": r.get("shape", ""), "floor": None, "empty": None,
                                    "points": defaultdict(dict), "errors": []})
        if r.get("error"):
            s["errors"].append(r)
            continue
        if r["backend"] == "floor":
            s["floor"] = r
        elif r["backend"] == "empty":
            s["empty"] = r
        elif r.get("cold_us") is not None:
            s["points"][r["backend"]][r["M"]] = r
    return shapes


def plot_shape(key, s, out_dir, plt):
    n, k = key
    fig, ax = plt.subplots(figsize=(7.5, 5))
    forced = sorted(b for b in s["points"] if b.startswith("blockfp8:"))
    for b in forced:
        pts = sorted(s["points"][b].items())
        ax.plot([m for m, _ in pts], [r["cold_us"] for _, r in pts], color="0.75", lw=0.8, zorder=1)
    if forced:
        ax.plot([], [], color="0.75", lw=0.8, label="blockfp8 forced paths")
    styles = {"blockfp8": dict(color="C0", lw=2.2, marker="o", ms=4, zorder=4),
              "cublaslt": dict(color="C3", lw=1.6, marker="s", ms=4, zorder=3),
              "blockfp8_bf16a": dict(color="C2", lw=1.6, marker="^", ms=4, zorder=3),
              "blockfp8_quant_gemm": dict(color="C1", lw=1.2, ls="--", marker="v", ms=3, zorder=2)}
    for b, style in styles.items():
        pts = sorted(s["points"].get(b, {}).items())
        if pts:
            ax.plot([m for m, _ in pts], [r["cold_us"] for _, r in pts], label=b, **style)
    if s["floor"] and s["floor"].get("cold_us"):
        f = s["floor"]["cold_us"]
        gbs = n * k / (f * 1e-6) / 1e9
        ax.axhline(f, color="k", ls="--", lw=1.2, label=f"weight-streaming floor {f:.1f} µs ({gbs:.0f} GB/s)")
    if s["empty"] and s["empty"].get("cold_us"):
        ax.axhline(s["empty"]["cold_us"], color="0.4", ls=":", lw=1.0,
                   label=f"empty kernel {s['empty']['cold_us']:.1f} µs")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("M (tokens)")
    ax.set_ylabel("cold time per call (µs)")
    ax.set_title(f"N={n} K={k}  {s['name']}", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    path = os.path.join(out_dir, f"shape_{n}x{k}.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def best_forced(points, m):
    best = None
    for b, per_m in points.items():
        if b.startswith("blockfp8:") and m in per_m:
            if best is None or per_m[m]["cold_us"] < best["cold_us"]:
                best = per_m[m]
    return best


def kernel_family(config):
    return "tiled" if config.startswith("tiled") else "simt" if config.startswith("simt") else "decode"


def dispatch_lines(shapes, tolerance=1.05):
    """Markdown: where the dispatcher changes kernel family along M, and how its choice compares with
    the best forced path measured at the same point (present when the run used --paths or --sweep)."""
    out = []
    cross = []
    for (n, k), s in shapes.items():
        ours = s["points"].get("blockfp8", {})
        fams = [(m, kernel_family(ours[m].get("config", ""))) for m in sorted(ours)]
        changes = [f"{a[1]} to {b[1]} between M = {a[0]} and {b[0]}" for a, b in zip(fams, fams[1:]) if a[1] != b[1]]
        if changes:
            cross.append(f"- {s['name']} {n}×{k}: " + "; ".join(changes))
    if cross:
        out.append("## Where the dispatcher changes kernel\n")
        out += cross
        out.append("")
    compared = []
    for (n, k), s in shapes.items():
        ours = s["points"].get("blockfp8", {})
        for m, o in sorted(ours.items()):
            bf = best_forced(s["points"], m)
            if bf and bf.get("cold_us"):
                compared.append((o["cold_us"] / bf["cold_us"], s["name"], n, k, m, o, bf))
    if compared:
        within = sum(1 for c in compared if c[0] <= tolerance)
        out.append("## The dispatcher against the best forced path\n")
        out.append(f"Within {100 * (tolerance - 1):.0f} % of the best forced path at {within} of {len(compared)} "
                   f"points (dispatcher cold / best forced cold; below 1 where no forced path beat it).\n")
        out.append("| shape | M | dispatcher | µs | best forced | µs | ratio |")
        out.append("|---|---:|---|---:|---|---:|---:|")
        for ratio, name, n, k, m, o, bf in sorted(compared, key=lambda c: -c[0])[:15]:
            out.append(f"| {name} {n}×{k} | {m} | `{o.get('config', '')}` | {o['cold_us']:.2f} | "
                       f"`{bf.get('config', '')}` | {bf['cold_us']:.2f} | {ratio:.3f} |")
        out.append("")
    return out


def write_md(path, rows, shapes, images, args):
    first = next((r for r in rows if r.get("gpu")), {})
    date = args.date or first.get("date", "unknown")
    commit = args.commit_label or first.get("commit", "unknown")
    gpu = args.gpu or first.get("gpu", "unknown")
    md_dir = os.path.dirname(os.path.abspath(path))
    out = [f"# blockfp8 benchmark results\n",
           f"- date: {date}",
           f"- commit: `{commit}`",
           f"- GPU: {gpu}" + (f" ({first.get('sm_count')} SMs, L2 {first.get('l2_bytes', 0) / 1e6:.0f} MB, "
                             f"peak clocks SM {first.get('sm_clock_khz', 0) // 1000} MHz / "
                             f"mem {first.get('mem_clock_khz', 0) // 1000} MHz)" if first else ""),
           f"- cuBLASLt {first.get('cublaslt_version', '?')}, blockfp8 {first.get('blockfp8_version', '?')}"]
    if args.command:
        out.append(f"- command: `{args.command}`")
    out.append("")
    out.append("Times are per call, median of graph replays. *Cold*: operands rotate over copies that together "
               "exceed the L2 several times. *× floor*: cold time over the time our best read-only kernel needs "
               "to stream the N·K weight bytes (same rotation). *× cuBLASLt* < 1 means blockfp8 is faster.\n")

    fgb = [r for r in rows if r.get("shape") == "floor_gb"]
    if fgb:
        r = fgb[-1]
        out.append(f"Streaming floor on a {r['bytes'] / 1e9:.2f} GB buffer: **{r.get('tbps', 0):.3f} TB/s** "
                   f"(`{r['config']}`).\n")

    out.append(f"## Summary (geometric means over M ≤ {DECODE_MAX_M})\n")
    out.append("| shape | N×K | floor µs | floor GB/s | blockfp8 × floor | blockfp8 × cuBLASLt | worst rel_err | all written |")
    out.append("|---|---|---:|---:|---:|---:|---:|---|")
    for (n, k), s in shapes.items():
        f = s["floor"]["cold_us"] if s["floor"] and s["floor"].get("cold_us") else None
        ours = s["points"].get("blockfp8", {})
        lt = s["points"].get("cublaslt", {})
        decode = [m for m in ours if m <= DECODE_MAX_M]
        x_floor = geomean([ours[m]["cold_us"] / f for m in decode]) if f else None
        x_lt = geomean([ours[m]["cold_us"] / lt[m]["cold_us"] for m in decode if m in lt])
        errs = [r["rel_err"] for r in ours.values() if r.get("rel_err") is not None]
        written = all(r.get("written") is not False for r in ours.values())
        gbs = n * k / (f * 1e-6) / 1e9 if f else None
        out.append(f"| {s['name']} | {n}×{k} | {fmt(f)} | {fmt(gbs, '.0f')} | {fmt(x_floor)} | {fmt(x_lt)} | "
                   f"{fmt(max(errs) if errs else None, '.2e')} | {'yes' if written else '**NO**'} |")
    out.append("")
    out += dispatch_lines(shapes)

    for (n, k), s in shapes.items():
        out.append(f"## {s['name']} — N={n}, K={k}\n")
        if (n, k) in images:
            out.append(f"![N={n} K={k}]({os.path.relpath(images[(n, k)], md_dir)})\n")
        f = s["floor"]["cold_us"] if s["floor"] and s["floor"].get("cold_us") else None
        if s["floor"]:
            out.append(f"Floor `{s['floor'].get('config')}`: {fmt(f)} µs cold, "
                       f"{fmt(s['floor'].get('hot_us'))} µs hot; empty kernel "
                       f"{fmt(s['empty']['cold_us'] if s['empty'] else None)} µs.\n")
        out.append("| M | blockfp8 config | cold µs | hot µs | × floor | TFLOP/s | GB/s | cuBLASLt µs | × cuBLASLt "
                   "| rel_err | written | best forced path |")
        out.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
        ms = sorted(set(m for per_m in s["points"].values() for m in per_m))
        ours, lt = s["points"].get("blockfp8", {}), s["points"].get("cublaslt", {})
        for m in ms:
            o, c = ours.get(m), lt.get(m)
            bf = best_forced(s["points"], m)
            bf_txt = f"`{bf['config']}` {bf['cold_us']:.2f} µs" if bf else "-"
            if o:
                x_floor = o["cold_us"] / f if f else None
                x_lt = o["cold_us"] / c["cold_us"] if c else None
                w = {True: "yes", False: "**NO**"}.get(o.get("written"), "-")
                out.append(f"| {m} | `{o.get('config', '')}` | {fmt(o['cold_us'])} | {fmt(o.get('hot_us'))} | "
                           f"{fmt(x_floor)} | {fmt(o.get('tflops'), '.1f')} | {fmt(o.get('gbps'), '.0f')} | "
                           f"{fmt(c['cold_us'] if c else None)} | {fmt(x_lt)} | {fmt(o.get('rel_err'), '.2e')} | "
                           f"{w} | {bf_txt} |")
            else:
                out.append(f"| {m} | - | - | - | - | - | - | {fmt(c['cold_us'] if c else None)} | - | - | - | {bf_txt} |")
        fused, two = s["points"].get("blockfp8_bf16a", {}), s["points"].get("blockfp8_quant_gemm", {})
        if fused or two:
            out.append("\nbf16 activations: `blockfp8_bf16a` (blockfp8_gemm_bf16a) against `blockfp8_quant_gemm` "
                       "(blockfp8_quantize_1x128 + blockfp8_gemm) on the same X.\n")
            out.append("| M | bf16a path | bf16a cold µs | quant_gemm cold µs | bf16a / quant_gemm | bf16a × floor "
                       "| bitwise identical | rel_err |")
            out.append("|---:|---|---:|---:|---:|---:|---|---:|")
            for m in sorted(set(fused) | set(two)):
                a, b = fused.get(m), two.get(m)
                how = {0: "two launches", 1: "one launch"}.get(a.get("one_launch") if a else None, "-")
                ratio = a["cold_us"] / b["cold_us"] if a and b and b["cold_us"] else None
                same = {True: "yes", False: "**NO**"}.get((a or b or {}).get("identical"), "-")
                out.append(f"| {m} | {how} | {fmt(a['cold_us'] if a else None)} | {fmt(b['cold_us'] if b else None)} "
                           f"| {fmt(ratio, '.3f')} | {fmt(a['cold_us'] / f if a and f else None)} | {same} "
                           f"| {fmt(a.get('rel_err') if a else None, '.2e')} |")
        lt_errs = [r for r in lt.values() if r.get("rel_err") is not None]
        if lt_errs:
            worst = max(lt_errs, key=lambda r: r["rel_err"])
            out.append(f"\ncuBLASLt worst rel_err {worst['rel_err']:.2e} (M={worst['M']}); "
                       f"written everywhere: {'yes' if all(r.get('written') is not False for r in lt.values()) else '**NO**'}.")
        if s["errors"]:
            out.append("\nNot measured:\n")
            for r in s["errors"]:
                out.append(f"- {r['backend']} M={r['M']}: {r['error']}")
        out.append("")
    with open(path, "w") as fh:
        fh.write("\n".join(out) + "\n")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("jsonl", help="blockfp8-bench --json output")
    p.add_argument("--out-dir", default="bench-plots", help="where the PNGs go (default bench-plots)")
    p.add_argument("--md", help="write a markdown results page here")
    p.add_argument("--command", help="the bench command line, for the page header")
    p.add_argument("--date", help="override the date in the header (default: from the JSONL)")
    p.add_argument("--commit", dest="commit_label", help="override the commit in the header")
    p.add_argument("--gpu", help="override the GPU in the header")
    p.add_argument("--only-commit", help="use only lines stamped with this commit")
    p.add_argument("--no-png", action="store_true", help="skip the plots (markdown only)")
    args = p.parse_args(argv)

    rows = load(args.jsonl, args.only_commit)
    if not rows:
        print("no rows", file=sys.stderr)
        return 1
    shapes = by_shape(rows)
    images = {}
    if not args.no_png:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        os.makedirs(args.out_dir, exist_ok=True)
        for key, s in shapes.items():
            images[key] = plot_shape(key, s, args.out_dir, plt)
        print(f"{len(images)} plots in {args.out_dir}", file=sys.stderr)
    if args.md:
        write_md(args.md, rows, shapes, images, args)
        print(f"wrote {args.md}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
