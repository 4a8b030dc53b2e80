// One GEMM problem laid out in a single device allocation, for the fuzzer and the reliability suite:
// any strides, scale layouts and base offsets; padding of A, B and the scales filled with NaN (a
// kernel that reads it poisons its output); C surrounded by guard bands and row padding holding a
// poison byte (0xff by default: NaN in bf16, fp16 and fp32), all checked after a call.
// The allocation is kept across problems (reserve() grows it only when needed), so a long fuzz run
// keeps its memory bounded.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "blockfp8/blockfp8.h"
#include "reference.h"

namespace bf8test {

struct GemmSpec {
  int64_t m = 0, n = 1, k = 128;
  blockfp8_dtype_t dtype = BLOCKFP8_DTYPE_BF16;
  int64_t lda = 0, ldb = 0, ldc = 0;                      // 0: K, K, N
  int64_t sa_m = -1, sa_k = -1, sb_n = -1, sb_k = -1;     // scale strides (elements); -1: row-major
  int64_t a_off = 0, b_off = 0;                           // bytes added to A's / B's 256-byte aligned base
  int64_t c_off = 0;                                      // elements added to C's 256-byte aligned base
  std::string str() const;
};

// A dense M x N x K problem of output dtype t (every layout field at its default).
inline GemmSpec spec(int64_t m, int64_t n, int64_t k, blockfp8_dtype_t t = BLOCKFP8_DTYPE_BF16) {
  GemmSpec s;
  s.m = m, s.n = n, s.k = k, s.dtype = t;
  return s;
}

// spec with every default (-1 / 0) replaced by the dense row-major value.
GemmSpec resolved(GemmSpec spec);

// Elements a strided rows x cols tensor spans (a stride of an extent-1 dimension is ignored).
int64_t strided_extent(int64_t rows, int64_t cols, int64_t s_row, int64_t s_col);

// max|C - ref| / max|ref| allowed: bf16 rounding alone is up to 2^-9 of an element.
inline double output_tolerance(blockfp8_dtype_t t) { return t == BLOCKFP8_DTYPE_BF16 ? 1e-2 : 5e-3; }

class GemmArena {
 public:
  static constexpr size_t kGuardBytes = 256;

  GemmArena() = default;
  GemmArena(const GemmArena&) = delete;
  GemmArena& operator=(const GemmArena&) = delete;
  ~GemmArena();

  // Device bytes set() needs for spec (the GPU reference's fp32 output included).
  static size_t bytes_needed(const GemmSpec& spec);
  // Makes the allocation at least `bytes` (on the current device).
  cudaError_t reserve(size_t bytes);

  // Lays spec out, fills A, B (random e4m3 from seed) and the scales (random in [2^lo, 2^hi], chosen
  // per dtype so fp16 cannot overflow), NaN in every gap, and poisons C with its guards. Grows the
  // allocation if needed. Asynchronous on stream except the host-to-device scale copies.
  cudaError_t set(const GemmSpec& spec, uint64_t seed, cudaStream_t stream);

  const GemmSpec& spec() const { return spec_; }
  GemmOperands operands() const;  // device pointers
  void* c() const { return base_ + c_ + kGuardBytes + size_t(spec_.c_off * dtype_bytes(spec_.dtype)); }
  // The whole span C's checks cover: guard, C (row padding included), guard.
  uint8_t* c_region() const { return base_ + c_; }
  size_t c_region_bytes() const { return c_bytes_; }
  uint8_t* base() const { return base_; }
  size_t used_bytes() const { return used_; }

  void set_poison(uint8_t byte) { poison_byte_ = byte; }
  cudaError_t poison(cudaStream_t stream) const;

  // blockfp8_gemm (cfg == nullptr) or blockfp8_gemm_ex(cfg); asynchronous.
  blockfp8_status_t call(const blockfp8_config_t* cfg, cudaStream_t stream) const;
  blockfp8_status_t call_plain(cudaStream_t stream) const;

  // The GPU reference into the arena's reference buffer (dense M x N fp32).
  cudaError_t reference(cudaStream_t stream) const;
  cudaError_t fetch_reference(std::vector<float>& ref) const;
  // The C region (guards included) back on the host; synchronous.
  cudaError_t fetch(std::vector<uint8_t>& region) const;

  // Guards and row padding still poison, every element written, error within tolerance.
  // Returns "" when all hold, else what failed.
  std::string check(const std::vector<uint8_t>& region, const std::vector<float>& ref,
                    Comparison* out = nullptr) const;
  // Only the guard bands and row padding (for results checked some other way).
  std::string check_guards(const std::vector<uint8_t>& region) const;
  // The whole region (guards and C) still all poison: nothing was written.
  bool untouched(const std::vector<uint8_t>& region) const;

 private:
  GemmSpec spec_{};
  uint8_t* base_ = nullptr;
  size_t capacity_ = 0, used_ = 0;
  size_t a_ = 0, b_ = 0, as_ = 0, bs_ = 0, c_ = 0, c_bytes_ = 0, ref_ = 0;
  uint8_t poison_byte_ = 0xff;
  std::vector<float> h_scales_;
};

}  // namespace bf8test
