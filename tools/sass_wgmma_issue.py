#!/usr/bin/env python3
"""What stands between a kernel's wgmmas: per kernel function, its instruction count, its wgmma
(QGMMA/HGMMA) count, and how many R2UR and NOP sit among the few instructions before each wgmma.

    python3 tools/sass_wgmma_issue.py build/CMakeFiles/blockfp8_objects.dir/src/kernels/tiled_gemm.cu.o
    python3 tools/sass_wgmma_issue.py dump.sass --match 'tiled_gemm_kernel<192' --show 1

A wgmma reads its descriptors from uniform registers. Where ptxas cannot prove a descriptor warp-uniform
(it derives from threadIdx.x, or from a loop-carried per-thread value), it builds it in ordinary registers
and moves it with R2UR before every wgmma, with NOPs for the latency: in the tiled kernel that was a fifth
of the main loop's warp samples (twenty-sixth session, docs/tiled-kernel-notes.md). Read from lane 0
(__shfl_sync), such values go to the uniform datapath. Run this before and after a change to see it.

The input is an object, cubin or library (disassembled with cuobjdump -sass) or a text file that already
holds cuobjdump's output. cuobjdump: $CUOBJDUMP, the CUDA toolkit's, the one on PATH, or the one Triton's
wheel ships (triton/backends/nvidia/bin), which is how this build machine has one.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

FUNC = re.compile(r"^\s+Function : (\S+)")
INSTR = re.compile(r"^\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
WGMMA = re.compile(r"\b[QH]GMMA\.")
R2UR = re.compile(r"(^|\s)R2UR\b")
NOP = re.compile(r"^(@!?U?P\w+\s+)?NOP\b")


def find_cuobjdump():
    for c in (os.environ.get("CUOBJDUMP"), "/usr/local/cuda/bin/cuobjdump", shutil.which("cuobjdump")):
        if c and os.access(c, os.X_OK):
            return c
    try:
        import triton  # noqa: PLC0415 -- only to find the binary it ships
        c = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "cuobjdump")
        if os.access(c, os.X_OK):
            return c
    except Exception:  # noqa: BLE001
        pass
    return None


def sass_text(path):
    with open(path, "rb") as f:
        head = f.read(4)
    if head != b"\x7fELF":
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    tool = find_cuobjdump()
    if not tool:
        sys.exit("no cuobjdump found (set CUOBJDUMP)")
    return subprocess.run([tool, "-sass", path], capture_output=True, text=True, check=False).stdout


def functions(text):
    """{mangled name: [instruction text, ...]} in address order."""
    out, cur = {}, None
    for line in text.splitlines():
        m = FUNC.match(line)
        if m:
            cur = m.group(1)
            out[cur] = []
            continue
        m = INSTR.match(line)
        if cur and m:
            out[cur].append(m.group(2).strip())
    return out


def demangle(name):
    try:
        return subprocess.run(["c++filt", name], capture_output=True, text=True, check=False).stdout.strip() or name
    except OSError:
        return name


def issue_stats(instrs, window=6):
    """(instructions, wgmmas, R2UR and NOP among the `window` instructions before each wgmma, counted once)."""
    wg = [i for i, s in enumerate(instrs) if WGMMA.search(s)]
    near = set()
    for i in wg:
        near.update(range(max(0, i - window), i))
    r2ur = sum(1 for j in near if R2UR.search(instrs[j]))
    nop = sum(1 for j in near if NOP.match(instrs[j]))
    return len(instrs), len(wg), r2ur, nop


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("input", help="object/cubin/library, or a text file of cuobjdump -sass output")
    ap.add_argument("--match", default="", help="only functions whose demangled name contains this regex")
    ap.add_argument("--window", type=int, default=6, help="instructions before a wgmma that count (default 6)")
    ap.add_argument("--show", type=int, default=0, help="print the code around the first N wgmma groups")
    a = ap.parse_args(argv)
    funcs = functions(sass_text(a.input))
    print("| function | instructions | wgmmas | R2UR before them | NOP before them |")
    print("|---|---:|---:|---:|---:|")
    for name, instrs in funcs.items():
        dn = demangle(name)
        if a.match and not re.search(a.match, dn):
            continue
        n, w, r, z = issue_stats(instrs, a.window)
        m = re.search(r"(\w+(?:<[^()]*>)?)\(", dn)  # the kernel's name and template arguments
        short = m.group(1) if m else dn
        print(f"| {short} | {n} | {w} | {r} | {z} |")
        if a.show:
            # A k-block's first wgmma: the one a WARPGROUP.ARRIVE (wgmma.fence) shortly precedes.
            groups = [i for i, s in enumerate(instrs)
                      if WGMMA.search(s) and any("WARPGROUP.ARRIVE" in t for t in instrs[max(0, i - 4): i])]
            for g in groups[: a.show]:
                print("```")
                print("\n".join(instrs[max(0, g - 24): g + 8]))
                print("```")
    return 0


if __name__ == "__main__":
    sys.exit(main())
