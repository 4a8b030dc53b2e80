#!/usr/bin/env python3
"""Whether two builds compiled a kernel to the same SASS, instruction for instruction.

    python3 tools/sass_same.py OLD.o NEW.o --match tiled_gemm_kernel \
        --rename 'tiled_gemm_kernelILi(\\d+)ELb=tiled_gemm_kernelILi128ELi\\1ELb'

Pairs each function of OLD whose mangled name matches --match with the function of NEW of the same name
after the --rename substitutions (regex=replacement, applied to OLD's names in order; for a template
parameter a change added), and prints one line per pair: identical, or how many instructions differ
and the first that does. Exit status 1 if any pair differs or has no partner.

Why: ptxas allocates registers over the whole kernel, so a change to one warp's code (a producer) or an
equivalent rewrite of an expression moves the allocation and instruction order of the others. In the
thirty-fifth session a rewrite that left the PTX equal but for the order of a few integer operations
reordered the tiled kernel's promotion FFMAs (fewer operand-reuse flags) and cost 1.02-1.07x at M = 1024-4096.
Run this before and after any change meant to leave a kernel as it was. OLD and NEW are objects,
cubins or libraries (disassembled with cuobjdump, found as tools/sass_wgmma_issue.py finds it) or text
files that already hold cuobjdump -sass output.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sass_wgmma_issue import demangle, functions, sass_text  # noqa: E402


# An anonymous namespace's mangled name carries a hash of the translation unit, which differs between
# builds of the same file: it is left out of the pairing.
ANON = re.compile(r"_GLOBAL__N__[0-9a-f]+_")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--match", default=".", help="regex on mangled names of OLD to compare (default: all)")
    ap.add_argument("--rename", action="append", default=[], help="REGEX=REPLACEMENT mapping OLD names to NEW")
    args = ap.parse_args()
    old = functions(sass_text(args.old))
    new = {ANON.sub("_GLOBAL__N__", k): v for k, v in functions(sass_text(args.new)).items()}
    renames = [r.split("=", 1) for r in args.rename]
    bad = 0
    for name, instrs in old.items():
        if not re.search(args.match, name):
            continue
        target = ANON.sub("_GLOBAL__N__", name)
        for pattern, repl in renames:
            target = re.sub(pattern, repl, target)
        label = demangle(name).removeprefix("void ").replace("(anonymous namespace)::", "").split("(")[0]
        if target not in new:
            print(f"{label}: not in {args.new}")
            bad += 1
            continue
        other = new[target]
        differ = [i for i in range(max(len(instrs), len(other))) if i >= len(instrs) or i >= len(other) or instrs[i] != other[i]]
        if not differ:
            print(f"{label}: identical ({len(instrs)} instructions)")
            continue
        bad += 1
        i = differ[0]
        first = f"{instrs[i] if i < len(instrs) else '-'} | {other[i] if i < len(other) else '-'}"
        print(f"{label}: {len(differ)} of {max(len(instrs), len(other))} instructions differ; first at {i}: {first}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
