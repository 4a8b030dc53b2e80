"""What the SM clock and the board power do while one GEMM runs back to back (large M is power-capped).

    python3 bench/probes/power_clock.py [--shape N,K ...] [--m 4096] [--seconds 2]

For each shape, blockfp8.gemm (row-major and column-major a_scales) and torch's block-scaled
F.scaled_mm (cuBLASLt) run as CUDA graphs of 20 calls, replayed for --seconds each, while
nvidia-smi samples the SM clock, the power and the clock-event reasons every 20 ms. Operands are
the same random tensors for all (hot L2 where they fit: this compares clocks, not cold times).
Prints µs a call, TFLOP/s, the median SM clock, the median power, and flops per SM cycle (TFLOP/s
divided by the clock: how much work each cycle does, whatever the cap leaves of the clock).
"""
import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))

import torch  # noqa: E402

import blockfp8  # noqa: E402
from blockfp8.bench import _torch_variants  # noqa: E402

FP8 = torch.float8_e4m3fn
QUERY = "clocks.sm,power.draw,clocks_event_reasons.active"


def operands(m, n, k, seed):
    g = torch.Generator(device="cpu").manual_seed(seed)
    kb, nb = k // 128, (n + 127) // 128
    a = (torch.randn(m, k, generator=g) * 2).to(FP8).cuda()
    b = (torch.randn(n, k, generator=g) * 2).to(FP8).cuda()
    a_s = (torch.rand(m, kb, generator=g) * 0.02 + 0.001).cuda()
    b_s = (torch.rand(nb, kb, generator=g) * 0.02 + 0.001).cuda()
    return a, a_s, b, b_s


def col_major(a_s):
    m, kb = a_s.shape
    m4 = (m + 3) // 4 * 4
    out = torch.empty((kb, m4), device=a_s.device, dtype=a_s.dtype).t()[:m]
    out.copy_(a_s)
    return out


def sample(fn, seconds, calls=20):
    """Replay a graph of `calls` calls of fn for `seconds` while nvidia-smi samples: (µs a call, rows)."""
    fn()
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        with torch.cuda.graph(g, stream=s):
            for _ in range(calls):
                fn()
    torch.cuda.synchronize()
    for _ in range(3):
        g.replay()
    torch.cuda.synchronize()
    smi = subprocess.Popen(["nvidia-smi", f"--query-gpu={QUERY}", "--format=csv,noheader,nounits", "-lms", "20"],
                           stdout=subprocess.PIPE, text=True)
    time.sleep(0.1)
    replays = 0
    t0 = time.perf_counter()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    while time.perf_counter() - t0 < seconds:
        for _ in range(10):
            g.replay()
        replays += 10
        end.record()
        end.synchronize()
    smi.terminate()
    out, _ = smi.communicate()
    us = start.elapsed_time(end) * 1000 / (replays * calls)
    rows = [r.split(", ") for r in out.strip().splitlines()]
    return us, [r for r in rows if len(r) >= 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shape", action="append", default=[])
    ap.add_argument("--m", type=int, default=4096)
    ap.add_argument("--seconds", type=float, default=2.0)
    args = ap.parse_args()
    shapes = [tuple(map(int, s.split(","))) for s in args.shape] or [(2112, 7168), (4096, 7168), (24576, 7168)]
    print(f"# {torch.cuda.get_device_name()}, M = {args.m}, {args.seconds} s a backend, nvidia-smi every 20 ms")
    print("| N x K | backend | µs a call | TFLOP/s | SM MHz (median, min) | W (median) | flops / SM cycle | reasons |")
    print("|---|---|---:|---:|---|---:|---:|---|")
    for n, k in shapes:
        m = args.m
        a, a_s, b, b_s = operands(m, n, k, seed=n * 7 + k)
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        backends = [("blockfp8 (row-major a_scale)", lambda: blockfp8.gemm(a, a_s, b, b_s, out=out)),
                    ("blockfp8 (column-major a_scale)",
                     (lambda sc: (lambda: blockfp8.gemm(a, sc, b, b_s, out=out)))(col_major(a_s)))]
        for label, fn in _torch_variants(a, a_s, b, b_s)[:1]:
            backends.append((f"torch {label}", fn))
        for name, fn in backends:
            try:
                us, rows = sample(fn, args.seconds)
            except Exception as e:  # noqa: BLE001 -- a peer that does not run here is reported, not fatal
                print(f"| {n}x{k} | {name} | failed: {type(e).__name__}: {str(e).splitlines()[0][:80]} |")
                continue
            busy = [r for r in rows if float(r[1]) > 150]
            clk = [float(r[0]) for r in busy] or [float("nan")]
            pw = [float(r[1]) for r in busy] or [float("nan")]
            reasons = sorted({r[2] for r in busy if len(r) > 2})
            tflops = 2 * m * n * k / us / 1e6
            per_cycle = tflops * 1e12 / (statistics.median(clk) * 1e6) / torch.cuda.get_device_properties(0).multi_processor_count
            print(f"| {n}x{k} | {name} | {us:.2f} | {tflops:.0f} | {statistics.median(clk):.0f}, {min(clk):.0f} | "
                  f"{statistics.median(pw):.0f} | {per_cycle:.0f} a SM | {' '.join(reasons)} |", flush=True)


if __name__ == "__main__":
    main()
