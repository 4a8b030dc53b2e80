#!/usr/bin/env python3
"""Forced configurations on seeded random inputs: writes one SHA-256 of C per (shape, M, config) to a
JSON file. Run it in two processes that differ only in a diagnostic switch (e.g. BLOCKFP8_DECODE_L2SUM)
and compare the files: a reduction that must keep its order must give the same digests.

Usage: python3 tools/forced_bits.py OUT.json --case N,K,M,CONFIG [--case ...]
CONFIG as blockfp8_config_name writes it, e.g. swapab_r64_t16_s3_w2_k2_p6."""
import argparse
import ctypes
import hashlib
import json
import os
import re
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from blockfp8 import _lib  # noqa: E402


def parse_config(name):
    m = re.fullmatch(r"swapab_r(\d+)_t(\d+)_s(\d+)_w(\d+)_k(\d+)_p(\d+)", name)
    if not m:
        raise SystemExit(f"not a decode configuration: {name}")
    r, t, s, w, k, p = map(int, m.groups())
    return _lib.Config(kernel=_lib.KERNEL_SWAPAB_SPLITK, token_tile=t, split_k=s, stages=p, warpgroups=w, weight_rows=r, stage_kblocks=k)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--case", action="append", required=True)
    args = ap.parse_args()
    lib = _lib.lib()
    digests = {}
    for case in args.case:
        n, k, m, name = case.split(",")
        n, k, m = int(n), int(k), int(m)
        g = torch.Generator(device="cuda").manual_seed(n * 7 + k * 3 + m)
        a = (torch.randn(m, k, device="cuda", generator=g) * 2).to(torch.float8_e4m3fn)
        b = (torch.randn(n, k, device="cuda", generator=g) * 2).to(torch.float8_e4m3fn)
        sa = torch.rand(m, k // 128, device="cuda", generator=g) + 0.5
        sb = torch.rand((n + 127) // 128, k // 128, device="cuda", generator=g) + 0.5
        c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
        cfg = parse_config(name)
        st = lib.blockfp8_gemm_ex(m, n, k, a.data_ptr(), k, sa.data_ptr(), sa.stride(0), sa.stride(1),
                                  b.data_ptr(), k, sb.data_ptr(), sb.stride(0), sb.stride(1), c.data_ptr(), n, 0,
                                  ctypes.byref(cfg), torch.cuda.current_stream().cuda_stream)
        torch.cuda.synchronize()
        ref = ((a.float() * sa.repeat_interleave(128, 1)) @ (b.float() * sb.repeat_interleave(128, 0)[:n]
                                                              .repeat_interleave(128, 1)).t())
        err = ((c.float() - ref).abs().max() / ref.abs().max()).item() if st == 0 else float("nan")
        digests[case] = {"status": st, "sha256": hashlib.sha256(c.view(torch.int16).cpu().numpy().tobytes()).hexdigest(),
                         "max_rel_err": err, "nan": int(torch.isnan(c).sum().item())}
        print(case, digests[case], flush=True)
    with open(args.out, "w") as f:
        json.dump(digests, f, indent=1)


if __name__ == "__main__":
    main()
