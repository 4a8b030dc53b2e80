// The tensor-map arguments behind each kernel's TMA layout (no driver needed to check them).
#include <gtest/gtest.h>

#include "tile_map.h"

using namespace blockfp8::detail;

namespace {

TileMapSpec fp8(int64_t rows, int64_t cols, int64_t ld, int box_rows, int box_kblocks) {
  TileMapSpec s;
  s.base = &s;  // any non-null address
  s.rows = rows, s.cols = cols, s.ld_bytes = ld, s.box_cols = 128, s.box_rows = box_rows, s.box_kblocks = box_kblocks;
  return s;
}

TEST(TileMap, OneKBlockBoxIsThePlainTwoDimensionalView) {
  const TileMapArgs a = tile_map_args(fp8(2112, 7168, 7296, 64, 1));
  ASSERT_EQ(a.rank, 2u);
  EXPECT_EQ(a.dims[0], 7168u);  // innermost: the K bytes of a row
  EXPECT_EQ(a.dims[1], 2112u);
  EXPECT_EQ(a.strides[0], 7296u);
  EXPECT_EQ(a.box[0], 128u);
  EXPECT_EQ(a.box[1], 64u);
}

TEST(TileMap, SeveralKBlocksStackAsAThirdDimension) {
  // [K/128][rows][128 B]: one box is box_kblocks [box_rows][128 B] tiles one after another.
  const TileMapArgs a = tile_map_args(fp8(2112, 7168, 7296, 16, 4));
  ASSERT_EQ(a.rank, 3u);
  EXPECT_EQ(a.dims[0], 128u);
  EXPECT_EQ(a.dims[1], 2112u);
  EXPECT_EQ(a.dims[2], 56u);
  EXPECT_EQ(a.strides[0], 7296u);  // the next row
  EXPECT_EQ(a.strides[1], 128u);   // the next k-block
  EXPECT_EQ(a.box[0], 128u);
  EXPECT_EQ(a.box[1], 16u);
  EXPECT_EQ(a.box[2], 4u);
}

TEST(TileMap, TheKBlockViewIsForFp8AndBf16) {
  // The fused kernel's X: bf16 [M][K], k-blocks of 128 elements = 256 bytes.
  TileMapSpec s = fp8(64, 512, 1024, 32, 2);
  s.type = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, s.ld_bytes = 2048, s.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  const TileMapArgs a = tile_map_args(s);
  ASSERT_EQ(a.rank, 3u);
  EXPECT_EQ(a.dims[0], 128u);  // elements
  EXPECT_EQ(a.dims[2], 4u);
  EXPECT_EQ(a.strides[0], 2048u);
  EXPECT_EQ(a.strides[1], 256u);  // the next k-block: 128 bf16
  s.type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;  // no other element type
  EXPECT_EQ(tile_map_args(s).rank, 0u);
  s = fp8(64, 512, 512, 64, 2);
  s.box_cols = 64;
  EXPECT_EQ(tile_map_args(s).rank, 0u);
}

TEST(TileMap, Bf16OutputBoxes) {
  TileMapSpec s;
  s.base = &s, s.type = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, s.rows = 300, s.cols = 2112, s.ld_bytes = 2 * 2112;
  s.box_cols = 16, s.box_rows = 64, s.swizzle = CU_TENSOR_MAP_SWIZZLE_32B;
  const TileMapArgs a = tile_map_args(s);
  ASSERT_EQ(a.rank, 2u);
  EXPECT_EQ(a.dims[0], 2112u);  // elements, not bytes
  EXPECT_EQ(a.strides[0], 4224u);
  EXPECT_EQ(a.box[0], 16u);
  EXPECT_EQ(a.box[1], 64u);
}

TEST(TileMap, SpecsDifferingInAnyFieldAreDifferentCacheKeys) {
  const TileMapSpec base = fp8(2112, 7168, 7168, 64, 1);
  TileMapSpec other = base;
  EXPECT_TRUE(other == base);
  other.box_kblocks = 2;
  EXPECT_FALSE(other == base);
  other = base, other.swizzle = CU_TENSOR_MAP_SWIZZLE_32B;
  EXPECT_FALSE(other == base);
  other = base, other.ld_bytes = 7296;
  EXPECT_FALSE(other == base);
}

}  // namespace
