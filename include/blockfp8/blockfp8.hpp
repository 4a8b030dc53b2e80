// Thin C++ layer over the C ABI: a problem description with named fields, and an exception-free
// call that returns the status. Header-only; no RAII, no allocation.
#pragma once

#include <cstdint>
#include <string>

#include "blockfp8/blockfp8.h"

namespace blockfp8 {

using Status = blockfp8_status_t;
using Config = blockfp8_config_t;

enum class DType : int32_t { bf16 = BLOCKFP8_DTYPE_BF16, fp16 = BLOCKFP8_DTYPE_FP16, fp32 = BLOCKFP8_DTYPE_FP32 };

// One 2-D strided view: element (i, j) lives at ptr[i * stride0 + j * stride1].
template <class T>
struct Matrix {
  T* ptr = nullptr;
  int64_t stride0 = 0;
  int64_t stride1 = 1;
};

struct Gemm {
  int64_t m = 0, n = 0, k = 0;
  const void* a = nullptr;  // e4m3 [m][lda]
  int64_t lda = 0;          // 0 = k
  Matrix<const float> a_scale;  // [m][k/128]
  const void* b = nullptr;  // e4m3 [n][ldb]
  int64_t ldb = 0;          // 0 = k
  Matrix<const float> b_scale;  // [ceil(n/128)][k/128]
  void* c = nullptr;        // [m][ldc]
  int64_t ldc = 0;          // 0 = n
  DType c_dtype = DType::bf16;

  // Row-major scales, as DeepSeek checkpoints and vLLM's Triton path store them.
  Gemm& row_major_scales() {
    a_scale.stride0 = k / 128; a_scale.stride1 = 1;
    b_scale.stride0 = k / 128; b_scale.stride1 = 1;
    return *this;
  }
  // Column-major (M-major) activation scales, as vLLM's CUTLASS / DeepGEMM paths pass them.
  Gemm& column_major_a_scale() {
    a_scale.stride0 = 1; a_scale.stride1 = m;
    return *this;
  }

  Status run(cudaStream_t stream, const Config* config = nullptr) const {
    return blockfp8_gemm_ex(m, n, k, a, lda ? lda : k, a_scale.ptr, a_scale.stride0, a_scale.stride1,
                            b, ldb ? ldb : k, b_scale.ptr, b_scale.stride0, b_scale.stride1,
                            c, ldc ? ldc : n, static_cast<blockfp8_dtype_t>(c_dtype), config, stream);
  }
};

inline Config plan(int64_t m, int64_t n, int64_t k, Status* status = nullptr) {
  Config cfg{};
  Status s = blockfp8_gemm_plan(m, n, k, &cfg);
  if (status) *status = s;
  return cfg;
}

// A forced configuration as blockfp8_gemm_ex runs it (its defaults filled in; blockfp8_config_resolve).
inline Config resolve(int64_t m, int64_t n, int64_t k, Config cfg, Status* status = nullptr) {
  Status s = blockfp8_config_resolve(m, n, k, &cfg);
  if (status) *status = s;
  return cfg;
}

inline std::string config_name(const Config& cfg) {
  char buf[64];
  blockfp8_config_name(&cfg, buf, sizeof buf);
  return buf;
}

inline const char* to_string(Status s) { return blockfp8_status_string(s); }

}  // namespace blockfp8
