// The GPU suites' main: prints the random seed up front, and exits with 77 (CTest's SKIP_RETURN_CODE
// for this executable) when there is no Hopper GPU, so `ctest` reports the suite as skipped rather
// than passed. Every test also skips itself (GTEST_SKIP) in that case; failures still fail.
// A test that runs longer than BLOCKFP8_TEST_TIMEOUT seconds (default 60) ends the process with 124
// and its name (tests/common/watchdog.h): a device hang costs a minute, not the run.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "gpu_test_util.h"
#include "random.h"
#include "watchdog.h"

namespace {
class WatchdogListener : public ::testing::EmptyTestEventListener {
 public:
  WatchdogListener(bf8test::Watchdog& wd, double seconds) : wd_(wd), seconds_(seconds) {}
  void OnTestStart(const ::testing::TestInfo& t) override {
    wd_.arm(std::string("test ") + t.test_suite_name() + "." + t.name(), seconds_);
  }
  void OnTestEnd(const ::testing::TestInfo&) override { wd_.disarm(); }

 private:
  bf8test::Watchdog& wd_;
  double seconds_;
};
}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const unsigned long long seed = bf8test::test_seed();
  std::printf("blockfp8 GPU tests: seed 0x%016llx (replay with BLOCKFP8_TEST_SEED=0x%016llx)\n", seed, seed);
  bf8test::Watchdog watchdog;
  // gtest owns (and deletes) the listener; it must not outlive the watchdog, which lives to the end.
  ::testing::UnitTest::GetInstance()->listeners().Append(
      new WatchdogListener(watchdog, bf8test::Watchdog::env_seconds("BLOCKFP8_TEST_TIMEOUT", 60)));
  const int rc = RUN_ALL_TESTS();
  if (rc == 0 && !bf8test::have_hopper()) {
    std::printf("SKIPPED: %s\n", bf8test::kNoHopper);
    return 77;
  }
  return rc;
}
