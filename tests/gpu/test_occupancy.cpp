// The decode kernels' occupancy, as the dispatcher's cost model and the launch assume it. A register
// count that crosses a register-partition boundary changes how many CTAs share an SM without failing
// any numerical test: at 107 registers the 32-token kernel ran one CTA an SM and 16384x512 took 1.8x
// its time at M = 32 (bench/results/2026-11-30-seventh-session-h200.md). A 288-thread CTA (9 warps)
// shares an SM with a second only at 96 registers or fewer (five warps in each 16 K partition).
#include <gtest/gtest.h>

#include "gpu_test_util.h"
#include "device_info.h"
#include "kernels/launch.h"

namespace {

TEST(Occupancy, TwoWarpgroupDecodeKernelsShareAnSm) {
  BF8T_REQUIRE_HOPPER();
  using blockfp8::detail::swapab_reg_ctas;
  EXPECT_EQ(swapab_reg_ctas(8, 2), 2) << "8-token kernel: more than 96 registers?";
  EXPECT_EQ(swapab_reg_ctas(16, 2), 2) << "16-token kernel: held to two by its shared-memory cap";
  EXPECT_EQ(swapab_reg_ctas(32, 2), 2) << "32-token kernel: __maxnreg__(96) lost?";
  // The widest token tiles hold 64-register accumulator pairs: one CTA an SM, as the cost model has it.
  EXPECT_EQ(swapab_reg_ctas(64, 2), 1);
  EXPECT_EQ(swapab_reg_ctas(128, 2), 1);
}

// Clusters of s CTAs (one an SM) the device holds at once: what the split-K rules check a grid against
// (every cluster of a split is resident at once). Printed, since the CPU defaults in dispatch.h are
// copies of one H200's values; on any device a cluster size holds no more than the one below it.
TEST(Occupancy, ResidentClustersShrinkWithTheirSize) {
  BF8T_REQUIRE_HOPPER();
  const blockfp8::detail::DeviceInfo* d = nullptr;
  ASSERT_EQ(blockfp8::detail::current_device_info(&d), BLOCKFP8_SUCCESS);
  std::printf("resident clusters of 1..8 CTAs:");
  for (int s = 1; s <= 8; ++s) std::printf(" %d", d->max_clusters[s]);
  std::printf("\n");
  EXPECT_LE(d->max_clusters[1], d->sm_count);
  EXPECT_GE(d->max_clusters[1], 1);
  for (int s = 2; s <= 8; ++s) {
    EXPECT_GE(d->max_clusters[s], 1) << s;
    EXPECT_LE(d->max_clusters[s], d->max_clusters[s - 1]) << s;
    EXPECT_LE(d->max_clusters[s] * s, d->sm_count) << s;
  }
}

}  // namespace
