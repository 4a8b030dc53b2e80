// The GPU suites' main: prints the random seed up front, and exits with 77 (CTest's SKIP_RETURN_CODE
// for this executable) when there is no Hopper GPU, so `ctest` reports the suite as skipped rather
// than passed. Every test also skips itself (GTEST_SKIP) in that case; failures still fail.
#include <gtest/gtest.h>

#include <cstdio>

#include "gpu_test_util.h"
#include "random.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const unsigned long long seed = bf8test::test_seed();
  std::printf("blockfp8 GPU tests: seed 0x%016llx (replay with BLOCKFP8_TEST_SEED=0x%016llx)\n", seed, seed);
  const int rc = RUN_ALL_TESTS();
  if (rc == 0 && !bf8test::have_hopper()) {
    std::printf("SKIPPED: %s\n", bf8test::kNoHopper);
    return 77;
  }
  return rc;
}
