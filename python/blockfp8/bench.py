"""python -m blockfp8.bench: the Python twin of blockfp8-bench, timing blockfp8 against the peers
importable here (torch._scaled_mm, vLLM, DeepGEMM, FlashInfer) by the C++ bench's method.

Method (bench/timing.cpp): for each (N, K) and M, a CUDA graph calls the op once per operand copy;
the copies together exceed --l2-factor x the L2, so every call reads from HBM (cold). The graph is
replayed --replays times; a figure is the median replay time over the number of calls. A graph whose
calls take --settle-min-us or more is first replayed untimed for --settle-ms (default 100): under
tensor-core load the GPU runs at its power limit, and each backend is timed in its own steady state,
not on the headroom of whatever ran before it (bench/results/2026-11-30-fifteenth-session-h200.md).
The decision is per point: once one graph of an (N, K, M) point settles, every later one does, and the
backends timed before it are timed again, settled, so that a point's backends share one state
(bench/results/2026-12-01-twenty-sixth-session-h200.md).
Hot is the same graph over copy 0. The floor is a Triton streaming-read kernel over exactly the N*K weight
bytes (python/blockfp8/_floor_triton.py; torch reductions where triton does not import), timed the
same cold way; the C++ bench's floor kernel (bench/floor.cu) stays the reference.

    python -m blockfp8.bench --shape 2112,7168 --m 1,16,64 --json py.jsonl --plot-dir plots
    python -m blockfp8.bench --shape 2112,7168 --m 1 --floor-gb 1    # + the floor on a 1 GB buffer
"""
from __future__ import annotations

import argparse
import datetime
import importlib
import json
import math
import os
import sys

# (name, N, K, split) at TP 1: the same DeepSeek-V3/R1 set as bench/shapes.cpp. split says which
# dimension tensor parallelism divides ("n": column-parallel, "k": row-parallel, None: replicated).
DEEPSEEK_LAYERS = [
    ("fused_qkv_a", 2112, 7168, None), ("kv_a", 576, 7168, None),
    ("q_b", 24576, 1536, "n"), ("kv_b", 32768, 512, "n"),
    ("o_proj", 7168, 16384, "k"), ("aux_4096x7168", 4096, 7168, None),
    ("gate_up", 36864, 7168, "n"), ("down", 7168, 18432, "k"),
    ("aux_24576x7168", 24576, 7168, "n"), ("aux_12288x7168", 12288, 7168, "n"),
    ("aux_7168x2048", 7168, 2048, "k"), ("aux_4608x7168", 4608, 7168, None),
]
DEFAULT_M = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]
PEERS = ["blockfp8", "torch", "vllm-cutlass", "vllm-triton", "deep_gemm", "flashinfer"]
CHECK_ROWS = 64      # rows of C checked against the float64 reference
REL_TOL = 2e-2       # a variant whose rel_err exceeds this is refused (bf16 output rounding is ~4e-3)
JSON_KEYS = ["backend", "config", "shape", "N", "K", "M", "cold_us", "hot_us", "rel_err", "max_abs_err",
             "written", "tflops", "gbps", "bytes", "flops", "floor_us", "copies", "hot_calls", "replays",
             "settle_ms", "settled", "error", "note", "commit", "gpu", "date", "sm_count", "l2_bytes",
             "torch_version", "blockfp8_version", "source"]


# ---------------------------------------------------------------------------------------------
# Pure helpers (no GPU; tests/python/test_bench_cpu.py covers them)
# ---------------------------------------------------------------------------------------------

def add_shape(shapes, n, k, name):
    """Append (n, k, name) unless (n, k) is there; then merge the name, like bench/shapes.cpp."""
    for i, (hn, hk, hname) in enumerate(shapes):
        if (hn, hk) == (n, k):
            if name and name not in hname.split("|"):
                shapes[i] = (hn, hk, f"{hname}|{name}" if hname else name)
            return shapes
    shapes.append((n, k, name))
    return shapes


def deepseek_shapes(tps):
    out = []
    for tp in tps:
        for name, n, k, split in DEEPSEEK_LAYERS:
            if (split == "n" and n % tp) or (split == "k" and k % tp):
                continue
            n2, k2 = (n // tp, k) if split == "n" else (n, k // tp) if split == "k" else (n, k)
            if k2 % 128 or n2 < 1:
                continue
            add_shape(out, n2, k2, f"{name}/tp{tp}" if split else name)
    return out


def parse_shape(text):
    try:
        n, k = (int(x) for x in text.lower().replace("x", ",").split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad shape {text!r} (want N,K)") from None
    if n < 1 or k < 128 or k % 128:
        raise argparse.ArgumentTypeError(f"bad shape {text!r} (N >= 1, K a positive multiple of 128)")
    return n, k


def parse_int_list(text):
    try:
        vals = [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad list {text!r} (want positive integers, comma-separated)") from None
    if not vals or min(vals) < 1:
        raise argparse.ArgumentTypeError(f"bad list {text!r} (want positive integers)")
    return vals


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="python -m blockfp8.bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--shape", type=parse_shape, action="append", default=[], metavar="N,K",
                   help="time this (N, K) instead of the DeepSeek set (repeatable)")
    p.add_argument("--tp", type=parse_int_list, default=[1, 2, 4, 8], help="TP degrees of the DeepSeek set")
    p.add_argument("--m", type=parse_int_list, default=DEFAULT_M, help="token counts")
    p.add_argument("--backends", default=",".join(PEERS), help=f"subset of {','.join(PEERS)}")
    p.add_argument("--replays", type=int, default=20)
    p.add_argument("--settle-ms", type=float, default=100.0,
                   help="replay a graph untimed this long first when its calls take >= --settle-min-us (0: off)")
    p.add_argument("--settle-min-us", type=float, default=20.0)
    p.add_argument("--l2-factor", type=float, default=3.0)
    p.add_argument("--max-copies", type=int, default=512)
    p.add_argument("--no-floor", action="store_true")
    p.add_argument("--floor-gb", type=float, default=0.0, metavar="GB",
                   help="also time every floor form on one GB-sized buffer (blockfp8-bench --floor-gb's twin)")
    p.add_argument("--json", metavar="PATH", help="append one JSON object per timed point")
    p.add_argument("--plot-dir", metavar="DIR", help="one PNG per shape (needs matplotlib)")
    p.add_argument("--commit", default=os.environ.get("BLOCKFP8_COMMIT") or "unknown")
    p.add_argument("--list-peers", action="store_true", help="print which backends are usable and exit")
    a = p.parse_args(argv)
    unknown = set(a.backends.split(",")) - set(PEERS)
    if unknown:
        p.error(f"unknown backend(s) {sorted(unknown)}; choose from {PEERS}")
    a.backends = [b for b in PEERS if b in a.backends.split(",")]
    shapes = []
    for n, k in a.shape:
        add_shape(shapes, n, k, "user")
    a.shapes = shapes or deepseek_shapes(a.tp)
    a.m = sorted(set(a.m))
    return a


def weight_bytes(n, k):
    return n * k + 4 * -(-n // 128) * (k // 128)


def call_bytes(m, n, k, out_bytes=2):
    """Bytes one call must move at least: weight + its scales, activations + scales, output."""
    return weight_bytes(n, k) + m * k + 4 * m * (k // 128) + out_bytes * m * n


def copies_for(l2_bytes, nbytes, factor=3.0, max_copies=512):
    """Operand copies whose bytes together reach factor x L2 (at least 2, at most max_copies)."""
    return int(min(max(math.ceil(factor * l2_bytes / max(nbytes, 1)), 2), max_copies))


def hot_calls(cold_us, target_us=2000.0):
    """Enough hot calls per graph to spread its start-up cost thin, as timing.cpp does."""
    return int(min(max(math.ceil(target_us / cold_us), 4), 256)) if cold_us and cold_us > 0 else 256


def settle_replays(replay_ms, calls, settle_ms, settle_min_us, force=False):
    """Untimed replays before timing a graph of `calls` calls whose one replay took replay_ms: enough
    for settle_ms, when a call takes settle_min_us or more or `force` (an earlier graph of the same
    point settled: timing.cpp's begin_point); else none."""
    if settle_ms <= 0 or calls <= 0 or (not force and 1000.0 * replay_ms / calls < settle_min_us):
        return 0
    return int(min(max(math.ceil(settle_ms / max(replay_ms, 1e-3)), 1), 100000))


def error_line(e, limit=200):
    """An exception as one short line for a row's error field: its type and its message's first line."""
    return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:limit]


def median(xs):
    s = sorted(xs)
    if not s:
        raise ValueError("median of nothing")
    h = len(s) // 2
    return s[h] if len(s) % 2 else 0.5 * (s[h - 1] + s[h])


def _num(v):
    if not isinstance(v, float):   # str, bool, int, None pass as they are
        return v
    return float(f"{v:.6g}") if math.isfinite(v) else None   # %.6g and null, like report.cpp


def json_line(row, info):
    """One JSON object with bench/report.cpp's keys (unknown ones null), derived rates filled in."""
    r = dict(row, **info)
    cold = r.get("cold_us")
    if cold and cold > 0:
        r.setdefault("tflops", r["flops"] / (cold * 1e-6) / 1e12 if r.get("flops") else None)
        r.setdefault("gbps", r["bytes"] / (cold * 1e-6) / 1e9 if r.get("bytes") else None)
    r.setdefault("source", "python")
    keys = JSON_KEYS + sorted(set(r) - set(JSON_KEYS))
    return json.dumps({key: _num(r.get(key)) for key in keys}, ensure_ascii=False, separators=(",", ":"))


def _cell(v, spec):
    return "-" if v is None or not math.isfinite(v) else format(v, spec)


def format_table(rows):
    """Markdown: one line per (shape, M, backend); x floor and x blockfp8 where both are known."""
    floor = {(r["N"], r["K"]): r.get("cold_us") for r in rows if r["backend"] == "floor"}
    ours = {(r["N"], r["K"], r["M"]): r.get("cold_us") for r in rows if r["backend"] == "blockfp8"}
    out = ["| shape | M | backend / config | cold µs | hot µs | TFLOP/s | GB/s | × floor | × blockfp8 | rel_err |",
           "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        shape = f"{r['N']}×{r['K']} {r.get('shape', '')}"
        who = r["backend"] + (f" `{r['config']}`" if r.get("config") else "")
        m = str(r["M"]) if r.get("M") else "-"
        if r.get("error"):
            out.append(f"| {shape} | {m} | {who} | error: {r['error']} | | | | | | |")
            continue
        cold, f, o = r.get("cold_us"), floor.get((r["N"], r["K"])), ours.get((r["N"], r["K"], r.get("M")))
        rate = (lambda key: r[key] / (cold * 1e-6) / (1e12 if key == "flops" else 1e9)
                if cold and r.get(key) else None)
        err = _cell(r.get("rel_err"), ".2e") + (" UNWRITTEN" if r.get("written") is False else "")
        out.append(f"| {shape} | {m} | {who} | {_cell(cold, '.2f')} | {_cell(r.get('hot_us'), '.2f')} | "
                   f"{_cell(rate('flops'), '.1f')} | {_cell(rate('bytes'), '.0f')} | "
                   f"{_cell(cold / f if cold and f and r['backend'] != 'floor' else None, '.2f')} | "
                   f"{_cell(cold / o if cold and o and r['backend'] not in ('floor', 'blockfp8') else None, '.2f')} "
                   f"| {err} |")
    return "\n".join(out)


def format_floor_gb(rows, gb):
    """Markdown: the floor forms on one big buffer, µs and TB/s, best marked (bench/floor.cu's table)."""
    ok = [r for r in rows if r.get("cold_us")]
    best = min(ok, key=lambda r: r["cold_us"]) if ok else None
    out = [f"floor on one {gb:g} GB buffer", "", "| floor variant | µs | TB/s |", "|---|---:|---:|"]
    for r in rows:
        if r.get("error"):
            out.append(f"| {r['config']} | error: {r['error']} | |")
            continue
        out.append(f"| {r['config']}{' (best)' if r is best else ''} | {r['cold_us']:.1f} | "
                   f"{r['bytes'] / (r['cold_us'] * 1e-6) / 1e12:.3f} |")
    return "\n".join(out) + "\n"


def _import(name, attrs):
    """The first of attrs (dotted, in module `name`) that exists, or raise ImportError saying why."""
    mod = importlib.import_module(name)
    for a in attrs:
        obj = mod
        try:
            for part in a.split("."):
                obj = getattr(obj, part)
            return obj
        except AttributeError:
            continue
    raise ImportError(f"{name} has none of {', '.join(attrs)}")


_FP8_UTILS = "vllm.model_executor.layers.quantization.utils.fp8_utils"
_LOOKUPS = {  # backend -> (module, candidate functions), newest name first
    "blockfp8": ("blockfp8", ["gemm"]),
    "torch": ("torch", ["_scaled_mm"]),
    "vllm-cutlass": ("vllm._custom_ops", ["cutlass_scaled_mm"]),
    "vllm-triton": (_FP8_UTILS, ["w8a8_triton_block_scaled_mm", "w8a8_block_fp8_matmul"]),
    "deep_gemm": ("deep_gemm", ["fp8_gemm_nt", "gemm_fp8_fp8_bf16_nt"]),
    "flashinfer": ("flashinfer.gemm", ["fp8_blockscale_gemm_sm90"]),
}


def discover_peers(names=PEERS):
    """[(name, available, reason)]: importable and (with a GPU) not failing a tiny probe call."""
    out = []
    for name in names:
        try:
            _import(*_LOOKUPS[name])
        except Exception as e:  # noqa: BLE001 -- a broken install is as absent as a missing one
            out.append((name, False, error_line(e, 160)))
            continue
        out.append((name, True, "importable"))
    return out


# ---------------------------------------------------------------------------------------------
# GPU parts
# ---------------------------------------------------------------------------------------------

def _variants(name, a, a_s, b, b_s, out):
    """[(label, zero-arg call)] in order of preference. Scale layouts each peer may want are made
    here, outside the timed call; the first variant that runs and is correct is kept."""
    import torch
    fn = _import(*_LOOKUPS[name])
    if name in ("vllm-cutlass", "flashinfer"):
        a_s_mn = a_s.t().contiguous().t()   # M-major (strides (1, M)): what CUTLASS/cuBLAS block paths take
    if name == "blockfp8":
        return [("", lambda: fn(a, a_s, b, b_s, out=out))]
    if name == "torch":
        return _torch_variants(a, a_s, b, b_s)
    if name == "vllm-cutlass":
        return [("blockwise", lambda: fn(a, b.t(), a_s_mn, b_s.t(), torch.bfloat16))]
    if name == "vllm-triton":
        return [("triton", lambda: fn(a, b, a_s, b_s, [128, 128], torch.bfloat16))]
    if name == "deep_gemm":
        import deep_gemm
        align = (getattr(deep_gemm, "get_mn_major_tma_aligned_tensor", None)
                 or getattr(deep_gemm, "get_col_major_tma_aligned_tensor", None))
        sa = align(a_s) if align else a_s
        return [(fn.__name__, lambda: fn((a, sa), (b, b_s), out))]
    if name == "flashinfer":
        return [(f"input_scale_{lbl}", lambda sa=sa: fn(a, b, sa, b_s, out=out))
                for lbl, sa in (("mk", a_s), ("mmajor", a_s_mn), ("km", a_s.t().contiguous()))]
    raise KeyError(name)


def _round_up(x, m):
    return -(-x // m) * m


def _refused(reason):
    """A variant that is known not to work here: calling it raises `reason`, so pick() and the probe
    list it with the others instead of running something that reads out of bounds."""
    def call():
        raise RuntimeError(reason)
    return call


def torch_scale_layouts(a, a_s, b_s):
    """(a, scale_a, scale_b) in the layouts torch's cuBLASLt DeepSeek recipe (1x128 x 128x128,
    sm_90, CUDA >= 12.9) takes, with b passed as b.t() [K, N]:
      scale_a [Mp, K/128] M-major (strides (1, Mp)), Mp = M rounded up to 4 (cuBLASLt refuses
        other M, as the C++ peer found; a is then zero-padded to Mp rows and C sliced back);
      scale_b [L4, ceil(N/128)] K-major (strides (1, L4)), L4 = K/128 rounded up to 4, zero-padded:
        cuBLASLt reads the 128x128 scales with that leading dimension whatever the strides say.
    Our scales are a_s [M, K/128] (any strides) and b_s [ceil(N/128), K/128] row-major."""
    m, k = a.shape
    kb = k // 128
    mp, kb4 = _round_up(m, 4), _round_up(kb, 4)
    sb = b_s.new_zeros(b_s.shape[0], kb4)
    sb[:, :kb] = b_s
    sa = a_s.new_zeros(kb, mp).t()           # [Mp, kb], strides (1, Mp)
    sa[:m] = a_s
    if mp != m:
        a_p = a.new_zeros(mp, k)
        a_p[:m] = a
        a = a_p
    return a, sa, sb.t()


def _torch_variants(a, a_s, b, b_s):
    """torch's blockwise peers, newest API first; labels say when M was padded."""
    import torch
    m, k = a.shape
    kb = k // 128
    a_p, sa, sb = torch_scale_layouts(a, a_s, b_s)
    mp = a_p.shape[0]
    pad = f"_mpad{m}to{mp}" if mp != m else ""
    rows = (lambda c: c[:m]) if mp != m else (lambda c: c)   # a view: no kernel in the timed graph
    out = []
    F = torch.nn.functional
    if hasattr(F, "scaled_mm") and hasattr(F, "ScalingType"):
        st, sw = F.ScalingType, F.SwizzleType
        out.append((f"F.scaled_mm_1x128_128x128{pad}", lambda: rows(F.scaled_mm(
            a_p, b.t(), sa, st.BlockWise1x128, sb, st.BlockWise128x128,
            swizzle_a=sw.NO_SWIZZLE, swizzle_b=sw.NO_SWIZZLE, output_dtype=torch.bfloat16))))
    else:
        out.append(("F.scaled_mm", _refused("torch.nn.functional.scaled_mm / ScalingType not in this torch")))
    # torch._scaled_mm infers the recipe from the scales and wants scale_b.t() dense [N/128, K/128]:
    # the same memory as the padded layout only when K/128 % 4 == 0.
    if kb % 4 == 0:
        out.append((f"_scaled_mm_1x128_128x128{pad}", lambda: rows(torch._scaled_mm(
            a_p, b.t(), scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16))))
    else:
        out.append(("_scaled_mm", _refused(f"torch._scaled_mm needs K/128 % 4 == 0 (K/128 = {kb}): cuBLASLt "
                                           "reads its dense 128x128 scales with a leading dimension of "
                                           f"{_round_up(kb, 4)}")))
    return out


class Runner:
    def __init__(self, args):
        import torch
        self.torch, self.args = torch, args
        self.dev = torch.device("cuda", torch.cuda.current_device())
        p = torch.cuda.get_device_properties(self.dev)
        self.l2 = int(getattr(p, "L2_cache_size", 0) or 50 << 20)
        self.info = {"commit": args.commit, "gpu": p.name, "sm_count": p.multi_processor_count,
                     "settle_ms": args.settle_ms,
                     "l2_bytes": self.l2, "torch_version": torch.__version__,
                     "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
        try:
            import blockfp8
            self.info["blockfp8_version"] = blockfp8.version()
        except Exception:  # noqa: BLE001
            pass
        self.gen = torch.Generator(device=self.dev).manual_seed(1)
        self._floor_forms = None
        # Settling is decided per point, as in the C++ bench (timing.h, begin_point): once one graph of
        # the point settles, every later one does, and backends timed before that are timed again.
        self.point_settled = False

    def _fp8(self, *shape):
        t = self.torch
        return (t.randn(*shape, device=self.dev, generator=self.gen) * 2).to(t.float8_e4m3fn)

    def _scales(self, *shape):
        return self.torch.rand(*shape, device=self.dev, generator=self.gen) * 0.02 + 0.001

    def time_graph(self, calls):
        """Median µs per call over replays of one graph that makes every call once (timing.cpp)."""
        t = self.torch
        g = t.cuda.CUDAGraph()
        with t.cuda.graph(g):
            for c in calls:
                c()
        g.replay()   # warm-up: first-touch costs stay out of the numbers
        if self.args.settle_ms > 0:  # one timed replay sizes the settling (timing.cpp's settle)
            probe = (t.cuda.Event(enable_timing=True), t.cuda.Event(enable_timing=True))
            probe[0].record()
            g.replay()
            probe[1].record()
            t.cuda.synchronize()
            n = settle_replays(probe[0].elapsed_time(probe[1]), len(calls), self.args.settle_ms,
                               self.args.settle_min_us, force=self.point_settled)
            self.point_settled = self.point_settled or n > 0
            for _ in range(n):
                g.replay()
        ev = [(t.cuda.Event(enable_timing=True), t.cuda.Event(enable_timing=True)) for _ in range(self.args.replays)]
        for s, e in ev:
            s.record()
            g.replay()
            e.record()
        t.cuda.synchronize()
        us = median([1000.0 * s.elapsed_time(e) / len(calls) for s, e in ev])
        del g
        return us

    def cold_hot(self, calls):
        cold = self.time_graph(calls)
        n_hot = hot_calls(cold)
        return cold, self.time_graph([calls[0]] * n_hot), n_hot

    def floor_forms(self):
        """{label: read(w)} of the floor kernels to try, and a note on where they come from: the
        Triton streaming-read kernel's configurations when triton imports, else torch reductions."""
        if self._floor_forms is not None:
            return self._floor_forms
        t = self.torch
        try:
            from . import _floor_triton as ft
        except Exception as e:  # noqa: BLE001 -- no triton (or a broken one): the torch yardstick
            why = error_line(e, 120)
            forms = {"torch_sum_i64": lambda w: w.view(t.int64).sum(),
                     "torch_amax_i32": lambda w: w.view(t.int32).amax(),
                     "torch_sum_f32": lambda w: w.view(t.float32).sum()}
            self._floor_forms = (forms, f"torch-only yardstick (no triton floor: {why}); the C++ bench's "
                                        "floor kernel is the reference")
            return self._floor_forms
        sms = self.info["sm_count"]
        sink = t.empty(max(ft.programs(c, sms) for c in ft.CONFIGS), dtype=t.int32, device=self.dev)
        forms = {ft.label(c): (lambda w, c=c: ft.launch(c, w.view(t.int32), sink, sms)) for c in ft.CONFIGS}
        self._floor_forms = (forms, "triton streaming read (python/blockfp8/_floor_triton.py); the C++ bench's "
                                    "floor kernel is the reference")
        return self._floor_forms

    def floor(self, weights, n, k):
        """Cold time to read the N*K weight bytes; the fastest form that runs is kept. Falls back to
        the torch reductions when every Triton form fails here."""
        forms, note = self.floor_forms()
        best = self._best_floor(forms, weights)
        if best is None and not next(iter(forms)).startswith("torch"):
            print("  floor: no triton form ran; falling back to torch reductions", file=sys.stderr)
            t = self.torch
            note = "torch-only yardstick (the triton floor failed here); the C++ bench's floor kernel is the reference"
            best = self._best_floor({"torch_sum_i64": lambda w: w.view(t.int64).sum()}, weights)
        if best is None:
            return None
        label, cold, f = best
        hot = self.time_graph([lambda: f(weights[0].view(-1))] * hot_calls(cold))
        return {"backend": "floor", "config": label, "cold_us": cold, "hot_us": hot,
                "bytes": n * k, "flops": 0, "copies": len(weights), "replays": self.args.replays, "note": note}

    def _best_floor(self, forms, weights):
        best = None
        for label, f in forms.items():
            try:
                f(weights[0].view(-1))      # warm-up outside capture: compiles a triton kernel once
                self.torch.cuda.synchronize()
                cold = self.time_graph([lambda w=w: f(w.view(-1)) for w in weights])
            except Exception as e:  # noqa: BLE001
                print(f"  floor {label}: {str(e).splitlines()[0] if str(e) else type(e).__name__}", file=sys.stderr)
                self.torch.cuda.synchronize()
                continue
            if best is None or cold < best[1]:
                best = (label, cold, f)
        return best

    def floor_gb(self, gb):
        """Every floor form on one `gb`-GB buffer (far past the L2, so every read is from HBM):
        rows for the table and JSON, comparable with blockfp8-bench --floor-gb."""
        t = self.torch
        nbytes = int(gb * 1e9) // 512 * 512
        buf = t.randint(-2 ** 31, 2 ** 31 - 1, (nbytes // 4,), dtype=t.int32, device=self.dev).view(t.uint8)
        forms, note = self.floor_forms()
        rows = []
        for label, f in forms.items():
            try:
                f(buf)
                t.cuda.synchronize()
                us = self.time_graph([lambda: f(buf)])
            except Exception as e:  # noqa: BLE001
                rows.append({"backend": "floor", "config": label, "error": str(e).splitlines()[0][:160] if str(e) else
                             type(e).__name__})
                t.cuda.synchronize()
                continue
            rows.append({"backend": "floor", "config": label, "cold_us": us, "bytes": nbytes, "flops": 0,
                         "replays": self.args.replays, "note": note})
        for r in rows:
            r.update(shape=f"floor_{gb:g}gb", N=nbytes, K=1, M=0)
        del buf
        return rows

    def shape(self, n, k, name, backends):
        t, a = self.torch, self.args
        kb, nb = k // 128, -(-n // 128)
        n_w = copies_for(self.l2, weight_bytes(n, k), a.l2_factor, a.max_copies)
        print(f"N={n} K={k} ({name}): {n_w} weight copies", file=sys.stderr)
        ws = [(self._fp8(n, k), self._scales(nb, kb)) for _ in range(n_w)]
        base = {"shape": name, "N": n, "K": k, "M": 0}
        rows = []
        if not a.no_floor:
            f = self.floor([w for w, _ in ws], n, k)
            if f:
                rows.append(dict(base, **f))
                yield rows[-1]
        floor_us = rows[0]["cold_us"] if rows else None
        # float64 dequantised weight of copy 0, shared by every M and backend
        b_deq = ws[0][0].double() * ws[0][1].double().repeat_interleave(128, 0)[:n].repeat_interleave(128, 1)
        for m in a.m:
            c = copies_for(self.l2, call_bytes(m, n, k), a.l2_factor, n_w)
            ops = [(self._fp8(m, k), self._scales(m, kb), ws[i][0], ws[i][1],
                    t.empty(m, n, device=self.dev, dtype=t.bfloat16)) for i in range(c)]
            idx = t.linspace(0, m - 1, min(m, CHECK_ROWS), device=self.dev).round().long().unique()
            a0, s0 = ops[0][0][idx].double(), ops[0][1][idx].double().repeat_interleave(128, 1)
            ref = (a0 * s0) @ b_deq.t()
            print(f"  M={m} ({c} copies)", file=sys.stderr)
            self.point_settled = False
            point_rows = []
            for be in backends:
                row = dict(base, backend=be, M=m, copies=c, replays=a.replays, floor_us=floor_us,
                           bytes=call_bytes(m, n, k), flops=2.0 * m * n * k)
                try:
                    row.update(self.point(be, ops, idx, ref))
                except Exception as e:  # noqa: BLE001 -- one peer failing must not end the run
                    row["error"] = error_line(e)
                    t.cuda.synchronize()
                if be == "blockfp8":
                    try:
                        import blockfp8
                        row["config"] = blockfp8.config_name(blockfp8.plan(m, n, k))
                    except Exception:  # noqa: BLE001
                        pass
                point_rows.append((row, self.point_settled))
            for row, settled in point_rows:
                calls = row.pop("_calls", None)
                if self.point_settled and not settled and calls and "error" not in row:
                    try:   # timed before the point settled: again, settled
                        row["cold_us"], row["hot_us"], row["hot_calls"] = self.cold_hot(calls)
                        row["note"] = "; ".join(filter(None, [row.get("note"), "timed again, settled with the point"]))
                    except Exception as e:  # noqa: BLE001
                        row["error"] = error_line(e)
                        t.cuda.synchronize()
                row["settled"] = int(self.point_settled)
                yield row
            del ops

    def pick(self, be, ops, idx, ref):
        """The first variant that runs and matches the reference on copy 0: (index, calls, check)."""
        t = self.torch
        why = []
        for v in range(len(_variants(be, *ops[0]))):
            calls = [_variants(be, *o)[v] for o in ops]
            label, first = calls[0]
            ops[0][4].fill_(float("nan"))   # poison: "written" means every element was produced
            try:
                res = first()
                res = ops[0][4] if res is None or isinstance(res, tuple) else res
                t.cuda.synchronize()
            except Exception as e:  # noqa: BLE001
                why.append(f"{label or be}: {str(e).splitlines()[0][:160] if str(e) else type(e).__name__}")
                continue
            diff = (res[idx].double() - ref).abs().max().item()
            rel = diff / max(ref.abs().max().item(), 1e-300)
            if not rel <= REL_TOL:
                why.append(f"{label or be}: rel_err {rel:.2e}")
                continue
            return calls, {"config": label, "rel_err": rel, "max_abs_err": diff,
                           "written": bool(t.isfinite(res).all().item())}
        raise RuntimeError("; ".join(why) or "no variant")

    def point(self, be, ops, idx, ref):
        calls, row = self.pick(be, ops, idx, ref)
        row["_calls"] = [c for _, c in calls]   # kept until the point is done (it may be timed again)
        row["cold_us"], row["hot_us"], row["hot_calls"] = self.cold_hot(row["_calls"])
        return row

    def probe(self, be, m=16, n=256, k=256):
        """One tiny untimed call, so a peer this GPU or build cannot run is skipped once, not per point."""
        t = self.torch
        b, bs = self._fp8(n, k), self._scales(n // 128, k // 128)
        a, s = self._fp8(m, k), self._scales(m, k // 128)
        ref = (a.double() * s.double().repeat_interleave(128, 1)) @ (
            b.double() * bs.double().repeat_interleave(128, 0).repeat_interleave(128, 1)).t()
        try:
            self.pick(be, [(a, s, b, bs, t.empty(m, n, device=self.dev, dtype=t.bfloat16))],
                      t.arange(m, device=self.dev), ref)
            return None
        except Exception as e:  # noqa: BLE001
            t.cuda.synchronize()
            return f"probe M={m} N={n} K={k} failed: {str(e)[:600]}"


def plot(rows, out_dir):
    """One log-log PNG per shape: cold µs vs M, a line per backend, the floor dashed."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("--plot-dir: matplotlib is not installed; no plots", file=sys.stderr)
        return []
    os.makedirs(out_dir, exist_ok=True)
    paths = []
    for n, k in dict.fromkeys((r["N"], r["K"]) for r in rows):
        mine = [r for r in rows if (r["N"], r["K"]) == (n, k) and r.get("cold_us") and not r.get("error")]
        fig, ax = plt.subplots(figsize=(7.5, 5))
        for be in dict.fromkeys(r["backend"] for r in mine if r["backend"] != "floor"):
            pts = sorted((r["M"], r["cold_us"]) for r in mine if r["backend"] == be)
            ax.plot(*zip(*pts), marker="o", ms=3, label=be, lw=2.2 if be == "blockfp8" else 1.4)
        for r in (r for r in mine if r["backend"] == "floor"):
            ax.axhline(r["cold_us"], color="k", ls="--", lw=1.2, label=f"floor {r['cold_us']:.1f} µs")
        ax.set(xscale="log", yscale="log", xlabel="M (tokens)", ylabel="cold time per call (µs)",
               title=f"N={n} K={k}  {mine[0]['shape'] if mine else ''}")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8, loc="upper left")
        fig.tight_layout()
        paths.append(os.path.join(out_dir, f"shape_{n}x{k}.png"))
        fig.savefig(paths[-1], dpi=110)
        plt.close(fig)
    return paths


def main(argv=None):
    args = parse_args(argv)
    peers = discover_peers(args.backends)
    if args.list_peers:
        for name, ok, why in peers:
            print(f"{name:14s} {'yes' if ok else 'no ':3s} {why}")
        return 0
    try:
        import torch
        has_gpu = torch.cuda.is_available()
    except ImportError:
        has_gpu = False
    if not has_gpu:
        print("blockfp8.bench: no CUDA device (torch.cuda.is_available() is False); "
              "this benchmark needs a Hopper GPU", file=sys.stderr)
        return 2
    run = Runner(args)
    backends = []
    for name, ok, why in peers:
        why = why if not ok else run.probe(name)
        if why:
            print(f"skipping {name}: {why}", file=sys.stderr)
        else:
            backends.append(name)
    print(f"{run.info['gpu']}, L2 {run.l2 / 1e6:.1f} MB; backends {', '.join(backends)}; floor: "
          f"{run.floor_forms()[1]}", file=sys.stderr)
    rows, jf = [], open(args.json, "a") if args.json else None
    try:
        if args.floor_gb > 0:
            gb_rows = run.floor_gb(args.floor_gb)
            print(format_floor_gb(gb_rows, args.floor_gb))
            for row in gb_rows:
                if jf:
                    jf.write(json_line(row, run.info) + "\n")
        for n, k, name in args.shapes:
            for row in run.shape(n, k, name, backends):
                rows.append(row)
                if row.get("error"):
                    print(f"    {row['backend']} M={row['M']}: {row['error']}", file=sys.stderr)
                if jf:
                    jf.write(json_line(row, run.info) + "\n")
                    jf.flush()
    finally:
        if jf:
            jf.close()
    print(f"# blockfp8.bench — {run.info['gpu']}, commit {args.commit}, {run.info['date']}\n")
    print(format_table(rows))
    if args.plot_dir:
        for p in plot(rows, args.plot_dir):
            print(f"wrote {p}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
