#!/usr/bin/env bash
# The test command: every C++ suite through CTest, then the Python suite. Without a Hopper GPU the
# GPU suites report "skipped" and only the host-side tests run; on one, everything runs.
# Usage: tools/run_tests.sh [build-dir]   (builds first if the directory has no build yet)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
if [ ! -f "$BUILD/build.ninja" ] && [ ! -f "$BUILD/Makefile" ]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$BUILD" -j"$(nproc)"
ctest --test-dir "$BUILD" --output-on-failure -LE fuzz
BLOCKFP8_LIBRARY="$PWD/$BUILD/libblockfp8.so" python3 -m pytest tests/python -q -p no:cacheprovider
