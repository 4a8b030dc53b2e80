// The hang watchdog of the GPU tests, the fuzzer and the benchmark (tests/common/watchdog.h): it must
// fire for a step that outlives its limit, name that step, and stay quiet for one disarmed in time.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>

#include "watchdog.h"

namespace {

std::mutex g_mu;
std::string g_fired;  // what the last expiry named
std::atomic<int> g_count{0};

void record(const std::string& what, double) {
  std::lock_guard<std::mutex> lk(g_mu);
  g_fired = what;
  ++g_count;
}

bool wait_for_count(int n, std::chrono::milliseconds limit) {
  const auto t0 = std::chrono::steady_clock::now();
  while (g_count.load() < n) {
    if (std::chrono::steady_clock::now() - t0 > limit) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

TEST(Watchdog, FiresForAStepPastItsLimitAndNamesIt) {
  g_count = 0;
  bf8test::Watchdog wd(record);
  wd.arm("test Suite.Hangs", 0.02);
  ASSERT_TRUE(wait_for_count(1, std::chrono::milliseconds(5000)));
  std::lock_guard<std::mutex> lk(g_mu);
  EXPECT_EQ(g_fired, "test Suite.Hangs");
}

TEST(Watchdog, QuietWhenDisarmedInTimeAndRearmable) {
  g_count = 0;
  bf8test::Watchdog wd(record);
  wd.arm("first", 5.0);
  wd.disarm();
  wd.arm("second", 5.0);  // re-arming moves the deadline: nothing fires within the old one either
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  wd.disarm();
  EXPECT_EQ(g_count.load(), 0);
  wd.arm("third", 0.01);  // still works after disarm
  ASSERT_TRUE(wait_for_count(1, std::chrono::milliseconds(5000)));
  std::lock_guard<std::mutex> lk(g_mu);
  EXPECT_EQ(g_fired, "third");
}

TEST(Watchdog, SecondsFromTheEnvironment) {
  setenv("BLOCKFP8_TEST_WATCHDOG_ENV", "7.5", 1);
  EXPECT_DOUBLE_EQ(bf8test::Watchdog::env_seconds("BLOCKFP8_TEST_WATCHDOG_ENV", 60), 7.5);
  setenv("BLOCKFP8_TEST_WATCHDOG_ENV", "-3", 1);
  EXPECT_DOUBLE_EQ(bf8test::Watchdog::env_seconds("BLOCKFP8_TEST_WATCHDOG_ENV", 60), 60);
  setenv("BLOCKFP8_TEST_WATCHDOG_ENV", "soon", 1);
  EXPECT_DOUBLE_EQ(bf8test::Watchdog::env_seconds("BLOCKFP8_TEST_WATCHDOG_ENV", 60), 60);
  unsetenv("BLOCKFP8_TEST_WATCHDOG_ENV");
  EXPECT_DOUBLE_EQ(bf8test::Watchdog::env_seconds("BLOCKFP8_TEST_WATCHDOG_ENV", 60), 60);
}

}  // namespace
