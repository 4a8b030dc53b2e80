// Shared by the GPU suites: the Hopper check that makes them skip cleanly without a GPU, CUDA
// error checking, an owning device buffer, and the note that replays a run's seed.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>

#include "random.h"

namespace bf8test {

// Whether the current device is compute capability 9.0 (the only one blockfp8 runs on).
inline bool have_hopper() {
  static const bool ok = [] {
    int count = 0, dev = 0;
    cudaDeviceProp prop{};
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0 || cudaGetDevice(&dev) != cudaSuccess ||
        cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
      cudaGetLastError();  // clear the (non-sticky) error so later calls start clean
      return false;
    }
    return prop.major == 9 && prop.minor == 0;
  }();
  return ok;
}

// For SCOPED_TRACE: how to replay this run's random data (test_seed()).
inline std::string seed_note() {
  char buf[96];
  std::snprintf(buf, sizeof buf, "replay with BLOCKFP8_TEST_SEED=0x%016llx", (unsigned long long)test_seed());
  return buf;
}

constexpr const char* kNoHopper = "no CUDA device with compute capability 9.0";

#define BF8T_REQUIRE_HOPPER() \
  do {                        \
    if (!::bf8test::have_hopper()) GTEST_SKIP() << ::bf8test::kNoHopper; \
  } while (0)

#define CUDA_ASSERT(expr)                                                                   \
  do {                                                                                      \
    const cudaError_t bf8t_err_ = (expr);                                                   \
    ASSERT_EQ(bf8t_err_, cudaSuccess) << #expr << ": " << cudaGetErrorString(bf8t_err_);    \
  } while (0)

// A cudaMalloc'ed buffer, freed on destruction.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);
  }
  cudaError_t alloc(size_t bytes) {
    if (ptr_) cudaFree(ptr_);
    ptr_ = nullptr;
    bytes_ = 0;
    const cudaError_t e = cudaMalloc(&ptr_, bytes ? bytes : 1);
    if (e == cudaSuccess) bytes_ = bytes;
    return e;
  }
  template <class T = unsigned char>
  T* get() const {
    return static_cast<T*>(ptr_);
  }
  size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

// A suite of GPU tests: skipped without a Hopper device, one non-blocking stream shared by its tests.
class HopperTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (have_hopper() && !stream_) {
      if (cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking) != cudaSuccess) stream_ = nullptr;
    }
  }
  static void TearDownTestSuite() {
    if (stream_) cudaStreamDestroy(stream_);
    stream_ = nullptr;
  }
  void SetUp() override {
    BF8T_REQUIRE_HOPPER();
    ASSERT_NE(stream_, nullptr) << "cudaStreamCreateWithFlags failed";
  }

  static inline cudaStream_t stream_ = nullptr;
};

}  // namespace bf8test
