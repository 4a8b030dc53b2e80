#include "tile_map.h"

namespace blockfp8::detail {

TileMapArgs tile_map_args(const TileMapSpec& s) {
  TileMapArgs a;
  if (s.box_kblocks <= 1) {  // the plain [rows][cols] view
    a.rank = 2;
    a.dims[0] = cuuint64_t(s.cols), a.dims[1] = cuuint64_t(s.rows);
    a.strides[0] = cuuint64_t(s.ld_bytes);
    a.box[0] = cuuint32_t(s.box_cols), a.box[1] = cuuint32_t(s.box_rows);
    return a;
  }
  constexpr int kBlock = 128;  // elements of one k-block
  int elem = 0;
  if (s.type == CU_TENSOR_MAP_DATA_TYPE_UINT8) elem = 1;
  if (s.type == CU_TENSOR_MAP_DATA_TYPE_BFLOAT16) elem = 2;
  if (elem == 0 || s.box_cols != kBlock) return a;
  a.rank = 3;
  a.dims[0] = kBlock, a.dims[1] = cuuint64_t(s.rows), a.dims[2] = cuuint64_t(s.cols / kBlock);
  a.strides[0] = cuuint64_t(s.ld_bytes), a.strides[1] = cuuint64_t(kBlock * elem);
  a.box[0] = kBlock, a.box[1] = cuuint32_t(s.box_rows), a.box[2] = cuuint32_t(s.box_kblocks);
  return a;
}

}  // namespace blockfp8::detail
