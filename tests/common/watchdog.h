// A device hang must cost seconds, not the session's device time: a watchdog thread ends the process
// (exit code 124, as timeout(1) does) when an armed step outlives its limit, naming the step, so
// that the suite's log says which test, fuzz case or benchmark point hung and the steps after it
// still run. (A hanging kernel cannot be interrupted from the host; ending the process tears its
// context down.) Used by the GPU tests, the fuzzer and blockfp8-bench.
#pragma once

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

namespace bf8test {

class Watchdog {
 public:
  using Clock = std::chrono::steady_clock;

  // Seconds from the environment variable `var` (a positive number), else `fallback`.
  static double env_seconds(const char* var, double fallback) {
    const char* v = std::getenv(var);
    if (!v || !*v) return fallback;
    char* end = nullptr;
    const double s = std::strtod(v, &end);
    return end != v && s > 0 ? s : fallback;
  }

  // on_expiry: what to do when a step outlives its limit (tests pass a recorder; the default ends the
  // process).
  explicit Watchdog(void (*on_expiry)(const std::string& what, double seconds) = expire)
      : on_expiry_(on_expiry), thread_([this] { loop(); }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lk(m_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  void arm(std::string what, double seconds) {
    {
      std::lock_guard<std::mutex> lk(m_);
      what_ = std::move(what);
      seconds_ = seconds;
      deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
      armed_ = true;
    }
    cv_.notify_all();
  }
  void disarm() {
    std::lock_guard<std::mutex> lk(m_);
    armed_ = false;
  }

  static void expire(const std::string& what, double seconds) {
    std::fprintf(stderr, "\nwatchdog: %s still running after %.0f s; presumed hung, exiting with 124\n", what.c_str(),
                 seconds);
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(124);
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lk(m_);
    while (!stop_) {
      if (armed_ && Clock::now() >= deadline_) {
        armed_ = false;
        on_expiry_(what_, seconds_);
        continue;
      }
      if (armed_)
        cv_.wait_until(lk, deadline_);
      else
        cv_.wait(lk);
    }
  }

  void (*on_expiry_)(const std::string&, double);
  std::mutex m_;
  std::condition_variable cv_;
  bool stop_ = false, armed_ = false;
  std::string what_;
  double seconds_ = 0;
  Clock::time_point deadline_{};
  std::thread thread_;  // last: starts once the members above exist
};

}  // namespace bf8test
