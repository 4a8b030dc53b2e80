#!/usr/bin/env bash
# Copy what the device suite runs out of a build directory into a small one (default build-dev/),
# so the device tool can carry it (it carries at most 64 MiB with the working tree; object files
# are not needed there). Usage: bash tools/stage_device_build.sh [build] [build-dev] [timeline-build]
# timeline-build: a build configured with -DBLOCKFP8_TIMELINE=ON whose decode_timeline probe (it links
# the instrumented library statically) comes along for the suite's `timeline` step.
set -euo pipefail
SRC=${1:-build}
DST=${2:-build-dev}
TL=${3:-}
rm -rf "$DST"
mkdir -p "$DST/tests" "$DST/bench"
cp -L "$SRC/libblockfp8.so" "$DST/libblockfp8.so"
for f in _fastcall.abi3.so COMMIT; do [ -e "$SRC/$f" ] && cp -L "$SRC/$f" "$DST/"; done
for t in blockfp8_gpu_tests blockfp8_fuzz blockfp8_unit_tests blockfp8_api_tests; do
  [ -x "$SRC/tests/$t" ] && cp "$SRC/tests/$t" "$DST/tests/"
done
for b in blockfp8-bench load_patterns rw_mix; do [ -x "$SRC/bench/$b" ] && cp "$SRC/bench/$b" "$DST/bench/"; done
if [ -n "$TL" ]; then cp "$TL/bench/decode_timeline" "$DST/bench/"; fi
[ -e "$DST/COMMIT" ] || git rev-parse --short HEAD >"$DST/COMMIT"
du -sh "$DST"
