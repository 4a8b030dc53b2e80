// The CPU reference of blockfp8's GEMM, exactly the formula of blockfp8.h with generic strides:
//   C[m, n] = sum_kb ( sum_{k in block kb} A[m, k] * B[n, k] ) * a_scale[m, kb] * b_scale[n / 128, kb]
// accumulated in double (every e4m3 product and every 128-term block sum is exact in double), plus
// bf16 / fp16 host conversions and the comparison the test suites use.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "blockfp8/blockfp8.h"

namespace bf8test {

// bf16 / fp16 <-> float, round to nearest even (NaN stays NaN, overflow goes to inf).
float bf16_to_float(uint16_t h);
uint16_t float_to_bf16(float x);
float fp16_to_float(uint16_t h);
uint16_t float_to_fp16(float x);

inline int64_t dtype_bytes(blockfp8_dtype_t t) { return t == BLOCKFP8_DTYPE_FP32 ? 4 : 2; }
const char* dtype_name(blockfp8_dtype_t t);

// Element idx of an output buffer of dtype t, as a double (NaN for a NaN pattern).
double load_output(const void* c, int64_t idx, blockfp8_dtype_t t);
// Stores x rounded to dtype t at element idx.
void store_output(void* c, int64_t idx, blockfp8_dtype_t t, double x);

// The operands of one GEMM; host pointers for the CPU reference, device pointers for the GPU one.
struct GemmOperands {
  int64_t m = 0, n = 0, k = 0;
  const uint8_t* a = nullptr;  // e4m3, element (m, k) at a[m * lda + k]
  int64_t lda = 0;
  const float* a_scale = nullptr;  // (m, kb) at a_scale[m * a_scale_stride_m + kb * a_scale_stride_k]
  int64_t a_scale_stride_m = 0, a_scale_stride_k = 0;
  const uint8_t* b = nullptr;  // e4m3, element (n, k) at b[n * ldb + k]
  int64_t ldb = 0;
  const float* b_scale = nullptr;  // (nb, kb) at b_scale[nb * b_scale_stride_n + kb * b_scale_stride_k]
  int64_t b_scale_stride_n = 0, b_scale_stride_k = 0;
};

// out[m * n + j]: the exact-as-double result, dense M x N. Uses all hardware threads.
void reference_gemm(const GemmOperands& p, std::vector<double>& out);

// The natural size of one output: the largest over C of sqrt(sum over k of (a * b * a_scale * b_scale)^2),
// what a sum of random terms comes to before cancellation. A check normalised by max|ref| alone fails
// by chance when C has one or a few elements and they cancel (M = N = 1, K = 128: max|ref| 0.018 where
// the terms are of order 1, s17 call 9); normalised by max(max|ref|, this) it does not, and over any
// C with more than a few elements the normalisation is max|ref| as before.
double reference_scale(const GemmOperands& p);

// The same, rounded to dtype t and stored into a strided C (element (m, n) at c[m * ldc + n]).
void reference_gemm(const GemmOperands& p, void* c, int64_t ldc, blockfp8_dtype_t t);

// A kernel's output against a reference.
struct Comparison {
  double max_abs_err = 0;  // max |C - ref| over written, finite elements
  double max_abs_ref = 0;  // max |ref|
  int64_t unwritten = 0;   // elements still holding a NaN (the poison pattern: nothing wrote them)
  int64_t non_finite = 0;  // +-inf (an overflow)
  int64_t worst_m = -1, worst_n = -1;  // where max_abs_err is
  double worst_got = 0, worst_ref = 0;
  int64_t first_unwritten_m = -1, first_unwritten_n = -1;
  double rel_err() const { return max_abs_ref > 0 ? max_abs_err / max_abs_ref : max_abs_err; }
  std::string str() const;
};

// c: host copy of the output (element (m, n) at c[m * ldc + n] of dtype t); ref: dense M x N.
Comparison compare_output(const void* c, int64_t ldc, blockfp8_dtype_t t, const double* ref, int64_t m, int64_t n);
Comparison compare_output(const void* c, int64_t ldc, blockfp8_dtype_t t, const float* ref, int64_t m, int64_t n);

}  // namespace bf8test
