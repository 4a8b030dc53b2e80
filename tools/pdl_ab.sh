#!/usr/bin/env bash
# What programmatic dependent launch is worth on the decode shapes (tools/env_ab.sh with BLOCKFP8_PDL).
# Usage: OUT=dir bash tools/pdl_ab.sh [build-dir]   -> $OUT/BLOCKFP8_PDL_ab.md
exec bash "$(dirname "$0")/env_ab.sh" "${1:-build}" BLOCKFP8_PDL --shape 2112,7168 --shape 6144,7168 \
  --shape 36864,7168 --shape 576,7168 --shape 32768,512 --m 1,8,32 --no-cublaslt
