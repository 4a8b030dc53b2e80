#!/usr/bin/env bash
# Whether a change moved a kernel's machine code, without cuobjdump (tools/sass_by_function.sh uses one, and
# finds the one Triton's wheel ships on this build machine):
# compile one kernel source to an sm_90a cubin (the library's flags, less -lineinfo, whose line
# table shifts with every edit) and print one line per kernel function: its .text section's name and
# a hash of its bytes. Diff two runs to see which functions changed.
# Usage: bash tools/kernel_text_hashes.sh src/kernels/swapab_splitk.cu [extra nvcc flags] > before.txt
#   (edit) ... > after.txt; diff before.txt after.txt
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SRC=$1
shift
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"${NVCC:-/usr/local/cuda/bin/nvcc}" -I"$ROOT/include" -I"$ROOT/src" -O3 -DNDEBUG -arch=sm_90a \
  --expt-relaxed-constexpr -std=c++17 "$@" -cubin -o "$TMP/k.cubin" "$SRC"
for s in $(readelf -SW "$TMP/k.cubin" 2>/dev/null | grep -o '\.text\.[^ ]*' | sort -u); do
  echo "$s $(readelf -x "$s" "$TMP/k.cubin" 2>/dev/null | tail -n +3 | md5sum | cut -c1-16)"
done
