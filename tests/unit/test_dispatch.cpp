// The dispatcher's rules, on a described device (no GPU needed).
#include <gtest/gtest.h>

#include "dispatch.h"

using namespace blockfp8::detail;

namespace {

// DeviceInfo's defaults describe an H200: 132 SMs, 227 KB of shared memory per CTA, and the cluster
// capacities of the decode kernel (32 clusters of 4, not 33).
DeviceInfo h200() { return DeviceInfo{}; }

TEST(Dispatch, TokenTileIsTheSmallestThatHoldsM) {
  const DeviceInfo d = h200();
  EXPECT_EQ(choose_config(1, 2112, 7168, d).token_tile, 8);
  EXPECT_EQ(choose_config(8, 2112, 7168, d).token_tile, 8);
  EXPECT_EQ(choose_config(9, 2112, 7168, d).token_tile, 16);
  EXPECT_EQ(choose_config(33, 2112, 7168, d).token_tile, 64);
  EXPECT_EQ(choose_config(128, 2112, 7168, d).token_tile, 128);
  EXPECT_EQ(choose_config(4096, 2112, 7168, d).token_tile, 128);
}

TEST(Dispatch, SplitFillsTheMachineInOneWave) {
  const DeviceInfo d = h200();
  // 2112 rows = 33 tiles: 33 clusters of 4 would not fit at once (32 do), 33 of 3 do.
  const blockfp8_config_t c = choose_config(4, 2112, 7168, d);
  EXPECT_EQ(c.kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK);
  EXPECT_EQ(c.split_k, 3);
  // 576 tiles already fill the machine several times over: at most a split that evens the tail.
  EXPECT_LE(choose_config(4, 36864, 7168, d).split_k, 2);
  // Few tiles and a long K: the deepest split.
  EXPECT_EQ(choose_config(1, 576, 7168, d).split_k, 8);
  // Never more splits than k-blocks.
  EXPECT_EQ(choose_config(1, 64, 128, d).split_k, 1);
  EXPECT_LE(choose_config(1, 64, 256, d).split_k, 2);
}

TEST(Dispatch, ChosenConfigsAreValidEverywhere) {
  const DeviceInfo d = h200();
  for (int64_t m : {1, 7, 64, 200, 4096})
    for (int64_t n : {1, 7, 2112, 4097, 24576})
      for (int64_t k : {128, 512, 7168, 16384}) {
        blockfp8_config_t c = choose_config(m, n, k, d);
        ASSERT_EQ(check_config(c, m, n, k, d), BLOCKFP8_SUCCESS) << m << " " << n << " " << k;
        EXPECT_GE(c.stages, swapab_min_stages(c.token_tile, c.warpgroups));
        EXPECT_LE(swapab_smem_bytes(c.token_tile, c.stages, swapab_kb_slice(k / 128, c.split_k)),
                  d.smem_per_block_optin);
        // The ring never exceeds the slice it streams (unless the reduction buffer needs it).
        EXPECT_TRUE(c.stages <= swapab_kb_slice(k / 128, c.split_k) ||
                    c.stages == swapab_min_stages(c.token_tile, c.warpgroups));
      }
}

TEST(Dispatch, StageRingBounds) {
  const DeviceInfo d = h200();
  // Two pipelined warpgroups each hold two stages: fewer would deadlock.
  EXPECT_EQ(swapab_min_stages(16, 2), 4);
  EXPECT_EQ(swapab_min_stages(32, 1), 2);
  // The widest tile is not pipelined but its reduction buffer needs two stages.
  EXPECT_EQ(swapab_min_stages(128, 1), 2);
  blockfp8_config_t c{BLOCKFP8_KERNEL_SWAPAB_SPLITK, 16, 1, 2, 2};
  EXPECT_EQ(check_config(c, 4, 2112, 7168, d), BLOCKFP8_ERROR_INVALID_CONFIG);
  c.stages = 4;
  EXPECT_EQ(check_config(c, 4, 2112, 7168, d), BLOCKFP8_SUCCESS);
  c.stages = kSwapabMaxStages + 1;
  EXPECT_EQ(check_config(c, 4, 2112, 7168, d), BLOCKFP8_ERROR_INVALID_CONFIG);
  // A K slice whose scales fill shared memory leaves no room for a ring.
  blockfp8_config_t wide{BLOCKFP8_KERNEL_SWAPAB_SPLITK, 128, 1, 0, 1};
  EXPECT_EQ(check_config(wide, 128, 2112, int64_t(128) * 400, d), BLOCKFP8_ERROR_INVALID_CONFIG);
}

TEST(Dispatch, ForcedConfigRules) {
  const DeviceInfo d = h200();
  auto status = [&](blockfp8_config_t c) { return check_config(c, 4, 2112, 7168, d); };
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SWAPAB_SPLITK, 24, 1, 0, 0}), BLOCKFP8_ERROR_INVALID_CONFIG);  // token tile
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 9, 0, 0}), BLOCKFP8_ERROR_INVALID_CONFIG);   // split > 8
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 0, 0, 0}), BLOCKFP8_ERROR_INVALID_CONFIG);   // split < 1
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SWAPAB_SPLITK, 128, 1, 0, 2}), BLOCKFP8_ERROR_INVALID_CONFIG); // 2 wg at 128
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 1, 0, 3}), BLOCKFP8_ERROR_INVALID_CONFIG);   // 3 wg
  EXPECT_EQ(status({99, 0, 0, 0, 0}), BLOCKFP8_ERROR_INVALID_CONFIG);
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SIMT, 5, 5, 5, 5}), BLOCKFP8_SUCCESS);
  // A split the device cannot place as a cluster is refused.
  DeviceInfo no_clusters = d;
  no_clusters.max_clusters[8] = 0;
  blockfp8_config_t c{BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 8, 0, 0};
  EXPECT_EQ(check_config(c, 4, 2112, 7168, no_clusters), BLOCKFP8_ERROR_INVALID_CONFIG);
}

TEST(Dispatch, AnyNIsTiledWithoutPadding) {
  // The grid covers ceil(N / 64) tiles; nothing requires N % 64 or N % 128.
  const DeviceInfo d = h200();
  for (int64_t n : {1, 7, 63, 65, 2112, 4097}) {
    blockfp8_config_t c = choose_config(1, n, 7168, d);
    EXPECT_EQ(check_config(c, 1, n, 7168, d), BLOCKFP8_SUCCESS) << n;
  }
}

}  // namespace
