// Shared plumbing for blockfp8-bench: CUDA error handling that throws (a bench run survives one bad
// point and records it), an owning device buffer, and the operand bundle every backend times.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace bench {

struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline void check_cuda(cudaError_t e, const char* what, const char* file, int line) {
  if (e != cudaSuccess)
    throw CudaError(std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ") in " + what + " at " +
                    file + ":" + std::to_string(line));
}
#define BENCH_CUDA(expr) ::bench::check_cuda((expr), #expr, __FILE__, __LINE__)

inline size_t round_up(size_t x, size_t a) { return (x + a - 1) / a * a; }
inline int64_t ceil_div(int64_t x, int64_t d) { return (x + d - 1) / d; }

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes) : size_(bytes) {
    if (bytes) BENCH_CUDA(cudaMalloc(&ptr_, bytes));
  }
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      if (ptr_) cudaFree(ptr_);
      ptr_ = std::exchange(o.ptr_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  template <class T = void>
  T* get() const { return static_cast<T*>(ptr_); }
  size_t size() const { return size_; }

 private:
  void* ptr_ = nullptr;
  size_t size_ = 0;
};

// One problem (M, N, K) with `copies` independent operand sets. Copies are what make a timing cold:
// a graph walks through them so each call finds its operands evicted from L2 by the others.
// Layouts are the library's canonical ones: A [m][k], B [n][k], row-major scales, C [m][n] bf16.
struct Operands {
  int64_t m = 0, n = 0, k = 0;
  std::vector<const uint8_t*> a, b;
  std::vector<const float*> a_scale, b_scale;
  std::vector<void*> c;
  int64_t sa_m = 0, sa_k = 0;  // a_scale's strides: (k_blocks, 1) row-major, or (1, M4) column-major

  int copies() const { return static_cast<int>(b.size()); }
  int64_t k_blocks() const { return k / 128; }
  int64_t n_blocks() const { return ceil_div(n, 128); }
  // Bytes one call must move at the least: both operands, both scale tensors and the bf16 output.
  double min_bytes() const {
    return double(m) * k + double(n) * k + 4.0 * double(m) * k_blocks() + 4.0 * double(n_blocks()) * k_blocks() +
           2.0 * double(m) * n;
  }
  double flops() const { return 2.0 * double(m) * double(n) * double(k); }
};

}  // namespace bench
