#!/usr/bin/env bash
# Build blockfp8-bench (and the GPU tests) of another commit or branch, for an interleaved A/B on the
# device (tools/binary_ab.sh takes two bench binaries; the bench links the library statically).
# Usage: bash tools/build_variant.sh REV OUT_DIR   -> OUT_DIR/blockfp8-bench, OUT_DIR/blockfp8_gpu_tests
#   e.g. bash tools/build_variant.sh wip/tiled-direct-epilogue build-dev/direct
# The source goes to a git worktree under /tmp, built with the same flags as the main build, plus
# CMAKE_ARGS (e.g. CMAKE_ARGS=-DCMAKE_CUDA_FLAGS=-Xfatbin=-compress-all: binaries about a third the
# size, for any revision; revisions with the BLOCKFP8_COMPRESS_FATBIN option also take that).
set -euo pipefail
REV=$1 OUT=$2
ROOT=$(git rev-parse --show-toplevel)
WT=/tmp/blockfp8-variant-$(git rev-parse --short "$REV")
[ -d "$WT" ] || git -C "$ROOT" worktree add --detach "$WT" "$REV" >/dev/null
# shellcheck disable=SC2086
cmake -S "$WT" -B "$WT/build" -G Ninja ${CMAKE_ARGS:-} >/dev/null
cmake --build "$WT/build" --target blockfp8-bench blockfp8_gpu_tests
mkdir -p "$OUT"
cp "$WT/build/bench/blockfp8-bench" "$WT/build/tests/blockfp8_gpu_tests" "$OUT/"
git -C "$WT" rev-parse --short HEAD >"$OUT/COMMIT"
du -sh "$OUT"
