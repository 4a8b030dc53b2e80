#!/usr/bin/env python3
"""Two builds of libblockfp8.so, one set of random inputs, the dispatcher's choice (or a forced
configuration) in each: are the outputs bitwise the same? For kernel changes that must not move a bit
(a reordered pipeline, a barrier layout). Needs torch with CUDA.

Usage: python3 tools/bitwise_vs_lib.py OLD.so NEW.so [--shape N,K ...] [--m 1,8,...]
Prints one line per differing point and a summary; exits 1 on any difference or error."""
import argparse
import ctypes
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from blockfp8._lib import _bind  # noqa: E402  (the package's prototypes; loads no library)
from blockfp8.bench import deepseek_shapes  # noqa: E402  (the benchmark's shape set)


def load(path):
    lib = ctypes.CDLL(path, mode=ctypes.RTLD_LOCAL)
    _bind(lib)  # the same argtypes the Python package gives this library
    return lib.blockfp8_gemm


def gemm(f, a, sa, b, sb, c):
    m, k = a.shape
    n = b.shape[0]
    st = f(m, n, k, a.data_ptr(), k, sa.data_ptr(), sa.stride(0), sa.stride(1), b.data_ptr(), k,
           sb.data_ptr(), sb.stride(0), sb.stride(1), c.data_ptr(), n, 0,
           torch.cuda.current_stream().cuda_stream)
    if st != 0:
        raise RuntimeError(f"blockfp8_gemm returned {st}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--shape", action="append", default=[])
    ap.add_argument("--tp", default="1,2,4,8")
    ap.add_argument("--m", default="1,2,4,8,12,16,24,32,40,48,56,64,96,128,192,256")
    args = ap.parse_args()
    shapes = [tuple(int(x) for x in s.split(",")) for s in args.shape]
    if not shapes:  # the DeepSeek set at each TP, as the benchmarks take it
        shapes = [(n, k) for n, k, _ in deepseek_shapes([int(t) for t in args.tp.split(",")])]
    ms = [int(x) for x in args.m.split(",")]
    old, new = load(args.old), load(args.new)
    torch.manual_seed(1234)
    dev = "cuda"
    points = diffs = 0
    for n, k in shapes:
        b = (torch.randn(n, k, device=dev) * 2).to(torch.float8_e4m3fn)
        sb = torch.rand((n + 127) // 128, k // 128, device=dev) + 0.5
        for m in ms:
            a = (torch.randn(m, k, device=dev) * 2).to(torch.float8_e4m3fn)
            sa = torch.rand(m, k // 128, device=dev) + 0.5
            outs = []
            for f in (old, new):
                c = torch.full((m, n), float("nan"), device=dev, dtype=torch.bfloat16)  # poisoned
                gemm(f, a, sa, b, sb, c)
                outs.append(c)
            torch.cuda.synchronize()
            points += 1
            bad = int((outs[0].view(torch.int16) != outs[1].view(torch.int16)).sum())
            unwritten = int(torch.isnan(outs[1]).sum())
            if bad or unwritten:
                diffs += 1
                print(f"{n}x{k} M={m}: {bad} elements differ, {unwritten} unwritten in new")
    print(f"bitwise_vs_lib: {points} points, {diffs} differ")
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
