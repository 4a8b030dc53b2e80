// The internal form of one GEMM call: every argument of the C ABI, validated once, passed by
// reference from the entry point through the dispatcher to a kernel's launcher.
#pragma once

#include <cstddef>
#include <cstdint>

#include "blockfp8/blockfp8.h"

namespace blockfp8::detail {

struct Problem {
  int64_t m = 0, n = 0, k = 0;
  const void* a = nullptr;
  int64_t lda = 0;
  const float* a_scale = nullptr;
  int64_t a_scale_stride_m = 0, a_scale_stride_k = 0;
  const void* b = nullptr;
  int64_t ldb = 0;
  const float* b_scale = nullptr;
  int64_t b_scale_stride_n = 0, b_scale_stride_k = 0;
  void* c = nullptr;
  int64_t ldc = 0;
  blockfp8_dtype_t c_dtype = BLOCKFP8_DTYPE_BF16;

  int64_t k_blocks() const { return k / 128; }
  int64_t n_blocks() const { return (n + 127) / 128; }
};

inline int64_t dtype_size(blockfp8_dtype_t t) { return t == BLOCKFP8_DTYPE_FP32 ? 4 : 2; }

// One call of blockfp8_quantize_1x128: X [m][ldx] (x_dtype) -> X_q [m][ldq] e4m3 and 1x128 scales.
struct QuantizeProblem {
  int64_t m = 0, k = 0;
  const void* x = nullptr;
  int64_t ldx = 0;
  blockfp8_dtype_t x_dtype = BLOCKFP8_DTYPE_BF16;
  void* x_q = nullptr;
  int64_t ldq = 0;
  float* scales = nullptr;
  int64_t scale_stride_m = 0, scale_stride_k = 0;
  blockfp8_scale_format_t fmt = BLOCKFP8_SCALE_FP32;

  int64_t k_blocks() const { return k / 128; }
};

// The A side of blockfp8_gemm_bf16a: activations to quantise (1x128, as blockfp8_quantize_1x128),
// and where the two-launch fallback may put X_q and its scales.
struct FusedA {
  const void* x = nullptr;
  int64_t ldx = 0;
  blockfp8_dtype_t x_dtype = BLOCKFP8_DTYPE_BF16;
  blockfp8_scale_format_t fmt = BLOCKFP8_SCALE_FP32;
  void* workspace = nullptr;
  size_t workspace_bytes = 0;
};

// The TMA engine needs 16-byte aligned global bases and row strides that are multiples of 16 bytes.
inline bool tma_operand_ok(const void* base, int64_t ld_bytes) {
  return (reinterpret_cast<uintptr_t>(base) & 15u) == 0 && ld_bytes % 16 == 0;
}
inline bool tma_compatible(const Problem& p) { return tma_operand_ok(p.a, p.lda) && tma_operand_ok(p.b, p.ldb); }

}  // namespace blockfp8::detail
