// blockfp8-bench's configuration names: every name blockfp8_config_name writes reads back to the
// same configuration (the sweeps and A/B scripts pass them to --config), and malformed ones are
// refused. Host only.
#include <gtest/gtest.h>

#include <string>

#include "blockfp8/blockfp8.h"
#include "blockfp8/blockfp8.hpp"
#include "options.h"

namespace {

blockfp8_config_t tiled(int rows, int stages, int cm, int cn) {
  blockfp8_config_t c{};
  c.kernel = BLOCKFP8_KERNEL_TILED, c.token_tile = 128, c.weight_rows = rows, c.stages = stages;
  c.cluster_m = cm, c.cluster_n = cn;
  return c;
}

void expect_same(const blockfp8_config_t& a, const blockfp8_config_t& b) {
  EXPECT_EQ(a.kernel, b.kernel);
  EXPECT_EQ(a.token_tile, b.token_tile);
  EXPECT_EQ(a.split_k, b.split_k);
  EXPECT_EQ(a.stages, b.stages);
  EXPECT_EQ(a.warpgroups, b.warpgroups);
  EXPECT_EQ(a.weight_rows, b.weight_rows);
  EXPECT_EQ(a.stage_kblocks, b.stage_kblocks);
  EXPECT_EQ(a.cluster_m, b.cluster_m);
  EXPECT_EQ(a.cluster_n, b.cluster_n);
}

TEST(BenchOptions, ConfigNamesRoundTrip) {
  blockfp8_config_t s{};
  s.kernel = BLOCKFP8_KERNEL_SWAPAB_SPLITK, s.weight_rows = 64, s.token_tile = 8, s.split_k = 3;
  s.warpgroups = 2, s.stage_kblocks = 2, s.stages = 12;
  blockfp8_config_t split = tiled(64, 8, 1, 1);
  split.split_k = 3;
  blockfp8_config_t w{};
  w.kernel = BLOCKFP8_KERNEL_WARP_MMA, w.weight_rows = 16, w.token_tile = 8, w.split_k = 2;
  w.warpgroups = 2, w.stage_kblocks = 8;
  for (const blockfp8_config_t& c : {s, tiled(144, 5, 2, 1), tiled(192, 0, 1, 4), tiled(64, 8, 0, 0), split, w}) {
    const std::string name = blockfp8::config_name(c);
    SCOPED_TRACE(name);
    blockfp8_config_t back{};
    ASSERT_TRUE(bench::parse_config_name(name, &back));
    expect_same(back, c);
  }
  EXPECT_EQ(blockfp8::config_name(tiled(144, 5, 2, 1)), "tiled_t128_r144_p5_c2x1");
  EXPECT_EQ(blockfp8::config_name(split), "tiled_t128_r64_p8_c1x1_k3");
  EXPECT_EQ(blockfp8::config_name(w), "warpmma_r16_t8_s2_w2_k8");
}

TEST(BenchOptions, TiledNameWithoutClusterTakesTheDefault) {
  blockfp8_config_t c{};
  ASSERT_TRUE(bench::parse_config_name("tiled_t128_r144_p5", &c));
  expect_same(c, tiled(144, 5, 0, 0));
}

TEST(BenchOptions, MalformedNamesAreRefused) {
  blockfp8_config_t c{};
  for (const char* bad : {"", "tiled", "tiled_t128_r144", "tiled_t128_r144_p5_c2", "tiled_t128_r144_p5_c2x1x",
                          "tiled_t128_r144_p5_", "swapab_r64_t8_s3_w2_k2", "swapab_r64_t8_s3_w2_k2_p12_c2x1",
                          "auto", "simt", "warpmma_r16_t8_s2_w2", "warpmma_r16_t8_s2_w2_k8_p0"})
    EXPECT_FALSE(bench::parse_config_name(bad, &c)) << bad;
}

}  // namespace
