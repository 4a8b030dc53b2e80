// validate_quantize: every rule of blockfp8_quantize_1x128's contract, one violating input each, plus
// the layouts that must pass; and the host reference's scale rule (tests/common/quantize_reference).
// Pointers are fake, well-separated addresses: nothing is dereferenced.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "fp8.h"
#include "problem.h"
#include "quantize_reference.h"
#include "validate.h"

namespace {

using blockfp8::detail::QuantizeProblem;
using blockfp8::detail::validate_quantize;

constexpr uint64_t kX = 1ull << 40, kQ = 2ull << 40, kS = 3ull << 40;

const void* at(uint64_t address) { return reinterpret_cast<const void*>(uintptr_t(address)); }

// A valid problem: dense X (bf16) and X_q, row-major scales.
QuantizeProblem make(int64_t m = 4, int64_t k = 512, blockfp8_dtype_t t = BLOCKFP8_DTYPE_BF16) {
  QuantizeProblem q;
  q.m = m, q.k = k;
  q.x = at(kX), q.ldx = k, q.x_dtype = t;
  q.x_q = const_cast<void*>(at(kQ)), q.ldq = k;
  q.scales = static_cast<float*>(const_cast<void*>(at(kS))), q.scale_stride_m = k / 128, q.scale_stride_k = 1;
  q.fmt = BLOCKFP8_SCALE_FP32;
  return q;
}

#define EXPECT_Q(problem, status) EXPECT_EQ(validate_quantize(problem), status)

TEST(ValidateQuantize, ValidLayouts) {
  EXPECT_Q(make(), BLOCKFP8_SUCCESS);
  for (auto t : {BLOCKFP8_DTYPE_BF16, BLOCKFP8_DTYPE_FP16, BLOCKFP8_DTYPE_FP32})
    EXPECT_Q(make(4, 512, t), BLOCKFP8_SUCCESS);
  QuantizeProblem q = make();
  q.fmt = BLOCKFP8_SCALE_UE8M0;
  EXPECT_Q(q, BLOCKFP8_SUCCESS);
  q = make(), q.scale_stride_m = 1, q.scale_stride_k = 4;  // column-major (1, M)
  EXPECT_Q(q, BLOCKFP8_SUCCESS);
  q = make(), q.ldx = 515, q.ldq = 517, q.x = at(kX + 2),
  q.x_q = const_cast<void*>(at(kQ + 1));  // odd, aligned to elem
  EXPECT_Q(q, BLOCKFP8_SUCCESS);
  q = make(1, 128), q.scale_stride_m = 0, q.scale_stride_k = 0;  // extent-1 dimensions ignore their strides
  EXPECT_Q(q, BLOCKFP8_SUCCESS);
  q = make(0), q.x = nullptr, q.x_q = nullptr, q.scales = nullptr, q.ldx = 0;  // M == 0: a no-op
  EXPECT_Q(q, BLOCKFP8_SUCCESS);
}

TEST(ValidateQuantize, Shape) {
  QuantizeProblem q = make();
  q.m = -1;
  EXPECT_Q(q, BLOCKFP8_ERROR_INVALID_SHAPE);
  q = make(), q.k = 0;
  EXPECT_Q(q, BLOCKFP8_ERROR_INVALID_SHAPE);
  q = make(), q.m = int64_t{1} << 31;
  EXPECT_Q(q, BLOCKFP8_ERROR_INVALID_SHAPE);
  q = make(), q.ldx = int64_t{1} << 62;  // byte extent overflows
  EXPECT_Q(q, BLOCKFP8_ERROR_INVALID_SHAPE);
  q = make(), q.k = 500, q.ldx = q.ldq = 500;
  EXPECT_Q(q, BLOCKFP8_ERROR_K_NOT_MULTIPLE_OF_128);
}

TEST(ValidateQuantize, DtypeAndFormat) {
  QuantizeProblem q = make();
  q.x_dtype = static_cast<blockfp8_dtype_t>(3);
  EXPECT_Q(q, BLOCKFP8_ERROR_INVALID_DTYPE);
  q = make(), q.fmt = static_cast<blockfp8_scale_format_t>(2);
  EXPECT_Q(q, BLOCKFP8_ERROR_INVALID_VALUE);
  q = make(0), q.fmt = static_cast<blockfp8_scale_format_t>(-1);  // checked even when M == 0
  EXPECT_Q(q, BLOCKFP8_ERROR_INVALID_VALUE);
}

TEST(ValidateQuantize, NullPointers) {
  QuantizeProblem q = make();
  q.x = nullptr;
  EXPECT_Q(q, BLOCKFP8_ERROR_NULL_POINTER);
  q = make(), q.x_q = nullptr;
  EXPECT_Q(q, BLOCKFP8_ERROR_NULL_POINTER);
  q = make(), q.scales = nullptr;
  EXPECT_Q(q, BLOCKFP8_ERROR_NULL_POINTER);
}

TEST(ValidateQuantize, Strides) {
  QuantizeProblem q = make();
  q.ldx = 511;
  EXPECT_Q(q, BLOCKFP8_ERROR_INVALID_STRIDE);
  q = make(), q.ldq = 511;
  EXPECT_Q(q, BLOCKFP8_ERROR_INVALID_STRIDE);
  q = make(), q.scale_stride_m = -4;
  EXPECT_Q(q, BLOCKFP8_ERROR_INVALID_STRIDE);
  q = make(), q.scale_stride_m = 1, q.scale_stride_k = 1;  // two groups share a word
  EXPECT_Q(q, BLOCKFP8_ERROR_INVALID_STRIDE);
  q = make(), q.scale_stride_k = 0;  // an output cannot broadcast
  EXPECT_Q(q, BLOCKFP8_ERROR_INVALID_STRIDE);
  q = make(), q.scale_stride_m = 0;
  EXPECT_Q(q, BLOCKFP8_ERROR_INVALID_STRIDE);
}

TEST(ValidateQuantize, Alignment) {
  QuantizeProblem q = make();
  q.x = at(kX + 1);
  EXPECT_Q(q, BLOCKFP8_ERROR_MISALIGNED);
  q = make(4, 512, BLOCKFP8_DTYPE_FP32), q.x = at(kX + 2);
  EXPECT_Q(q, BLOCKFP8_ERROR_MISALIGNED);
  q = make(), q.scales = reinterpret_cast<float*>(uintptr_t(kS + 2));
  EXPECT_Q(q, BLOCKFP8_ERROR_MISALIGNED);
}

TEST(ValidateQuantize, Aliasing) {
  QuantizeProblem q = make();
  q.x_q = const_cast<void*>(q.x);
  EXPECT_Q(q, BLOCKFP8_ERROR_ALIASING);
  q = make(), q.x_q = const_cast<void*>(at(kX + 4 * 512 * 2 - 1));  // last byte of X
  EXPECT_Q(q, BLOCKFP8_ERROR_ALIASING);
  q = make(), q.x_q = const_cast<void*>(at(kX + 4 * 512 * 2));  // just past X: fine
  EXPECT_Q(q, BLOCKFP8_SUCCESS);
  q = make(), q.scales = reinterpret_cast<float*>(uintptr_t(kX + 64));
  EXPECT_Q(q, BLOCKFP8_ERROR_ALIASING);
  q = make(), q.scales = reinterpret_cast<float*>(uintptr_t(kQ + 1024));
  EXPECT_Q(q, BLOCKFP8_ERROR_ALIASING);
}

TEST(QuantizeReference, GroupScale) {
  using bf8test::float_from_bits;
  using bf8test::reference_group_scale;
  EXPECT_EQ(reference_group_scale(448.0f, false), 1.0f);
  EXPECT_EQ(reference_group_scale(0.0f, false), 1e-10f / 448.0f);  // eps clamp
  EXPECT_EQ(reference_group_scale(1.0f, false), 1.0f / 448.0f);
  // UE8M0: rounded up to a power of two; an exact power of two stays.
  EXPECT_EQ(reference_group_scale(448.0f, true), 1.0f);
  EXPECT_EQ(reference_group_scale(896.0f, true), 2.0f);
  EXPECT_EQ(reference_group_scale(449.0f, true), 2.0f);
  EXPECT_EQ(reference_group_scale(447.0f, true), 1.0f);
  EXPECT_EQ(reference_group_scale(1.0f, true), 1.0f / 256.0f);  // 1/448 -> 2^-8
  // One ulp above a power of two still rounds up (log2f-based formulations can miss this).
  EXPECT_EQ(reference_group_scale(448.0f * float_from_bits(0x30800001u), true), 2.0f * float_from_bits(0x30800000u));
  // All-zero group: 1e-10 / 448 is floored at 1e-10 before rounding up: 2^-33.
  EXPECT_EQ(reference_group_scale(0.0f, true), std::ldexp(1.0f, -33));
}

}  // namespace
