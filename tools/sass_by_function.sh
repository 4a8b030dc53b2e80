#!/usr/bin/env bash
# Per-function SASS fingerprints of a binary, to check that a change leaves the kernels it is not meant
# to touch byte-identical (their timing moved by 2 % on SASS changes alone twice in the nineteenth session).
# Usage: bash tools/sass_by_function.sh BINARY [NAME-REGEX] > fingerprints.txt
#   then: paste old.txt new.txt | awk '{print ($2 == $4 ? "same" : "DIFF"), $1}'
# Each line: the mangled function name and the md5 of its instructions (addresses and encodings removed).
# CUOBJDUMP: the cuobjdump to use (default: the CUDA toolkit's, the first on PATH, else the one Triton's
# wheel ships, which is how this build machine has one). tools/kernel_text_hashes.sh compares one
# source's kernels from an sm_90a cubin without any disassembler.
set -euo pipefail
BIN=$1 PAT=${2:-.}
TRITON_CUOBJDUMP=$(python3 -c 'import os, triton; print(os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin/cuobjdump"))' 2>/dev/null || true)
CUOBJDUMP=${CUOBJDUMP:-$( [ -x /usr/local/cuda/bin/cuobjdump ] && echo /usr/local/cuda/bin/cuobjdump || command -v cuobjdump || echo "$TRITON_CUOBJDUMP")}
"$CUOBJDUMP" -sass "$BIN" 2>/dev/null |
  awk -v pat="$PAT" '/Function :/ { fn = $3 }
    /^ +\/\*[0-9a-f]+\*\// { if (fn ~ pat) { l = $0; gsub(/\/\*[0-9a-f]*\*\//, "", l); sub(/;.*/, "", l); print fn "\t" l } }' |
  awk -F'\t' '{ body[$1] = body[$1] $2 "\n" } END { for (f in body) { cmd = "md5sum | cut -c1-32"; printf "%s ", f; printf "%s", body[f] | cmd; close(cmd) } }' |
  sort
