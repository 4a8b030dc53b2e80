// What a kernel asks the TMA engine to move, and the arguments of cuTensorMapEncodeTiled that say it.
// Host-only and free of CUDA calls (tests/unit/test_tile_map.cpp); the encoding and the per-thread
// cache of encoded maps are in src/kernels/host_support.cpp.
#pragma once

#include <cuda.h>

#include <cstdint>

namespace blockfp8::detail {

// A row-major [rows][cols] matrix of `type` (row stride ld_bytes), read or written as boxes of
// box_rows x box_cols elements. box_kblocks > 1 (fp8 or bf16, box_cols = 128): the matrix viewed as
// [cols / 128][rows][128] so that one box holds box_kblocks consecutive 128-column blocks, each a
// [box_rows][128] tile, one after another in shared memory. Past the matrix: zeros on load,
// nothing on store.
struct TileMapSpec {
  const void* base = nullptr;
  CUtensorMapDataType type = CU_TENSOR_MAP_DATA_TYPE_UINT8;
  int64_t rows = 0, cols = 0, ld_bytes = 0;
  int box_cols = 0, box_rows = 0, box_kblocks = 1;
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_128B;

  bool operator==(const TileMapSpec& o) const {
    return base == o.base && type == o.type && rows == o.rows && cols == o.cols && ld_bytes == o.ld_bytes &&
           box_cols == o.box_cols && box_rows == o.box_rows && box_kblocks == o.box_kblocks && swizzle == o.swizzle;
  }
};

// The rank, dimensions (innermost first), strides in bytes of dimensions 1.. and box of the map.
struct TileMapArgs {
  uint32_t rank = 0;  // 0: the spec cannot be encoded
  cuuint64_t dims[3] = {};
  cuuint64_t strides[2] = {};
  cuuint32_t box[3] = {};
};
TileMapArgs tile_map_args(const TileMapSpec& spec);

}  // namespace blockfp8::detail
