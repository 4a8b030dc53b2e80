// The decode kernels' occupancy, as the dispatcher's cost model and the launch assume it. A register
// count that crosses a register-partition boundary changes how many CTAs share an SM without failing
// any numerical test: at 107 registers the 32-token kernel ran one CTA an SM and 16384x512 took 1.8x
// its time at M = 32 (bench/results/2026-11-30-seventh-session-h200.md). A 288-thread CTA (9 warps)
// shares an SM with a second only at 96 registers or fewer (five warps in each 16 K partition).
#include <gtest/gtest.h>

#include "gpu_test_util.h"
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

}  // namespace
