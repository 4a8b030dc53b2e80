// Every rule of blockfp8.h's contract, one violating input each, plus the layouts that must pass.
// validate() never dereferences a pointer, so the tensors are fake, well-separated addresses.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <utility>

#include "problem.h"
#include "validate.h"

namespace {

using blockfp8::detail::Problem;
using blockfp8::detail::validate;

constexpr uint64_t kA = 1ull << 40, kB = 2ull << 40, kAScale = 3ull << 40, kBScale = 4ull << 40, kC = 5ull << 40;
constexpr int64_t kBig = int64_t{1} << 31;
constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();

const void* at(uint64_t address) { return reinterpret_cast<const void*>(uintptr_t(address)); }
const float* fat(uint64_t address) { return static_cast<const float*>(at(address)); }
void* cat(uint64_t address) { return const_cast<void*>(at(address)); }

// A valid problem: dense A, B, C; row-major scales.
Problem make(int64_t m = 4, int64_t n = 256, int64_t k = 512, blockfp8_dtype_t t = BLOCKFP8_DTYPE_BF16) {
  Problem p;
  p.m = m, p.n = n, p.k = k;
  p.a = at(kA), p.lda = k;
  p.a_scale = fat(kAScale), p.a_scale_stride_m = k / 128, p.a_scale_stride_k = 1;
  p.b = at(kB), p.ldb = k;
  p.b_scale = fat(kBScale), p.b_scale_stride_n = k / 128, p.b_scale_stride_k = 1;
  p.c = cat(kC), p.ldc = n, p.c_dtype = t;
  return p;
}

#define EXPECT_STATUS(problem, status) EXPECT_EQ(validate(problem), status)

// ---- valid layouts -------------------------------------------------------------------------------

TEST(Validate, DenseRowMajorScalesEveryDtype) {
  for (auto t : {BLOCKFP8_DTYPE_BF16, BLOCKFP8_DTYPE_FP16, BLOCKFP8_DTYPE_FP32})
    EXPECT_STATUS(make(4, 256, 512, t), BLOCKFP8_SUCCESS);
}

TEST(Validate, ColumnMajorScales) {
  Problem p = make(33, 4097, 1024);
  p.a_scale_stride_m = 1, p.a_scale_stride_k = 33;  // a_scale (1, M)
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
  p.b_scale_stride_n = 1, p.b_scale_stride_k = 33;  // b_scale (1, ceil(N / 128))
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
}

TEST(Validate, BroadcastStrides) {
  Problem p = make();
  for (auto [sm, sk] : {std::pair<int64_t, int64_t>{0, 1}, {1, 0}, {0, 0}}) {
    p.a_scale_stride_m = sm, p.a_scale_stride_k = sk;
    p.b_scale_stride_n = sm, p.b_scale_stride_k = sk;
    EXPECT_STATUS(p, BLOCKFP8_SUCCESS) << sm << ", " << sk;
  }
}

TEST(Validate, PaddedStrides) {
  Problem p = make(7, 300, 512);
  p.lda = 512 + 16, p.ldb = 512 + 1, p.ldc = 300 + 5;
  p.a_scale_stride_m = 4 + 3;   // row-major, padded rows
  p.b_scale_stride_k = 3 + 2;   // column-major b_scale (1, NB + 2)
  p.b_scale_stride_n = 1;
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
  p.a_scale_stride_m = 1, p.a_scale_stride_k = 7 + 9;  // column-major, padded
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
}

TEST(Validate, OddN) {
  EXPECT_STATUS(make(4, 1, 128), BLOCKFP8_SUCCESS);
  EXPECT_STATUS(make(4, 7, 512), BLOCKFP8_SUCCESS);
  EXPECT_STATUS(make(4, 4097, 7168), BLOCKFP8_SUCCESS);
  EXPECT_STATUS(make(1, 24576, 16384), BLOCKFP8_SUCCESS);
}

TEST(Validate, LargestDimensions) {
  // Each dimension just below 2^31; C's byte extent (2^31 - 1)^2 * 2 still fits in int64.
  Problem p = make(kBig - 1, kBig - 1, 128);
  p.a_scale_stride_m = 1, p.b_scale_stride_n = 1;
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
  Problem q = make(4, 256, kBig - 128);
  EXPECT_STATUS(q, BLOCKFP8_SUCCESS);
}

TEST(Validate, MisalignedAAndBAreServedNotRefused) {
  Problem p = make();
  p.a = at(kA + 1), p.lda = 513;
  p.b = at(kB + 3), p.ldb = 520;
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
}

TEST(Validate, ElementAlignedCIsEnough) {
  Problem p = make();
  p.c = cat(kC + 2);  // bf16: 2-byte aligned
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
  p.c_dtype = BLOCKFP8_DTYPE_FP16;
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
  p.c = cat(kC + 4), p.c_dtype = BLOCKFP8_DTYPE_FP32;
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
  p.a_scale = fat(kAScale + 4), p.b_scale = fat(kBScale + 12);
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
}

TEST(Validate, InputsMayOverlapEachOther) {
  Problem p = make();
  p.b = p.a;                   // A and B the same tensor
  p.b_scale = p.a_scale;
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
}

// ---- M == 0 --------------------------------------------------------------------------------------

TEST(Validate, ZeroMAllowsNullAAScaleAndC) {
  Problem p = make(0);
  p.a = nullptr, p.a_scale = nullptr, p.c = nullptr;
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
}

TEST(Validate, ZeroMIgnoresEverythingOfAAScaleAndC) {
  Problem p = make(0);
  p.lda = 0, p.ldc = -1;                                  // strides of A and C
  p.a_scale_stride_m = -5, p.a_scale_stride_k = -5;       // a_scale strides
  p.c = cat(kC + 1);                                      // misaligned C
  p.a_scale = fat(kAScale + 2);                           // misaligned a_scale
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
  p.c = cat(kB);                                          // C "overlapping" B
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
}

TEST(Validate, ZeroMStillChecksShapeDtypeBAndBScale) {
  EXPECT_STATUS(make(0, 0, 512), BLOCKFP8_ERROR_INVALID_SHAPE);
  EXPECT_STATUS(make(0, 256, 100), BLOCKFP8_ERROR_K_NOT_MULTIPLE_OF_128);
  Problem p = make(0);
  p.c_dtype = static_cast<blockfp8_dtype_t>(3);
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_DTYPE);
  p = make(0), p.b = nullptr;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_NULL_POINTER);
  p = make(0), p.b_scale = nullptr;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_NULL_POINTER);
  p = make(0), p.ldb = 511;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_STRIDE);
  p = make(0), p.b_scale_stride_n = -1;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_STRIDE);
  p = make(0), p.b_scale = fat(kBScale + 2);
  EXPECT_STATUS(p, BLOCKFP8_ERROR_MISALIGNED);
}

// ---- shape ---------------------------------------------------------------------------------------

TEST(Validate, InvalidShape) {
  const int64_t shapes[][3] = {
      {-1, 256, 512},   {4, 0, 512},         {4, -1, 512},          {4, 256, 0},
      {4, 256, -128},   {kBig, 256, 512},    {4, kBig, 512},        {4, 256, kBig},
      {4, 256, kBig + 128}, {kI64Max, 256, 512}, {4, 256, std::numeric_limits<int64_t>::min()},
      {-1, 256, 100},   // shape is checked before K % 128
  };
  for (const auto& s : shapes) EXPECT_STATUS(make(s[0], s[1], s[2]), BLOCKFP8_ERROR_INVALID_SHAPE) << s[0] << " " << s[1] << " " << s[2];
}

TEST(Validate, KNotMultipleOf128) {
  for (int64_t k : {int64_t{64}, int64_t{127}, int64_t{129}, int64_t{200}, int64_t{1000}, int64_t{7169}, kBig - 1})
    EXPECT_STATUS(make(4, 256, k), BLOCKFP8_ERROR_K_NOT_MULTIPLE_OF_128) << k;
}

TEST(Validate, ByteExtentOverflowIsAShapeError) {
  Problem p = make(4);
  p.lda = int64_t{1} << 62;  // 3 * 2^62
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_SHAPE);
  p = make(4, 2);
  p.ldb = kI64Max;  // (N - 1) * ldb + K
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_SHAPE);
  p = make(2, 256, 512, BLOCKFP8_DTYPE_FP32);
  p.ldc = int64_t{1} << 61;  // (ldc + N) * 4 bytes
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_SHAPE);
  p = make(3);
  p.a_scale_stride_m = int64_t{1} << 62;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_SHAPE);
  p = make(3);
  p.b_scale_stride_k = int64_t{1} << 61;  // 3 * 2^61 elements * 4 bytes
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_SHAPE);
  // Dimensions each below 2^31 whose fp32 output extent (2^31 - 1)^2 * 4 does not fit in int64.
  p = make(kBig - 1, kBig - 1, 128, BLOCKFP8_DTYPE_FP32);
  p.a_scale_stride_m = 1, p.b_scale_stride_n = 1;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_SHAPE);
  // A range that would wrap around the address space.
  p = make();
  p.a = at(~uint64_t{0} - 1000);
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_SHAPE);
}

// ---- dtype ---------------------------------------------------------------------------------------

TEST(Validate, InvalidDtype) {
  for (int t : {3, -1, 100, 0x7fffffff}) {
    Problem p = make();
    p.c_dtype = static_cast<blockfp8_dtype_t>(t);
    EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_DTYPE) << t;
    p.a = nullptr;  // dtype is checked before pointers
    EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_DTYPE) << t;
  }
}

// ---- pointers ------------------------------------------------------------------------------------

TEST(Validate, NullPointer) {
  Problem p = make();
  p.a = nullptr;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_NULL_POINTER);
  p = make(), p.b = nullptr;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_NULL_POINTER);
  p = make(), p.a_scale = nullptr;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_NULL_POINTER);
  p = make(), p.b_scale = nullptr;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_NULL_POINTER);
  p = make(), p.c = nullptr;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_NULL_POINTER);
  p = make(), p.a = nullptr, p.lda = 1;  // pointers are checked before strides
  EXPECT_STATUS(p, BLOCKFP8_ERROR_NULL_POINTER);
}

// ---- strides -------------------------------------------------------------------------------------

TEST(Validate, LeadingDimensionTooSmall) {
  Problem p = make();
  p.lda = 511;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_STRIDE);
  p = make(), p.lda = -512;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_STRIDE);
  p = make(), p.ldb = 511;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_STRIDE);
  p = make(), p.ldb = 0;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_STRIDE);
  p = make(), p.ldc = 255;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_STRIDE);
  p = make(), p.ldc = -1;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_STRIDE);
  // The contract's lda >= K, ldb >= K, ldc >= N hold for a single row too.
  p = make(1), p.lda = 128;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_STRIDE);
  p = make(1, 1), p.ldb = 0;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_STRIDE);
  p = make(1, 256), p.ldc = 0;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_STRIDE);
}

TEST(Validate, NegativeScaleStride) {
  Problem p = make();
  p.a_scale_stride_m = -4;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_STRIDE);
  p = make(), p.a_scale_stride_k = -1;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_STRIDE);
  p = make(), p.b_scale_stride_n = -4;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_STRIDE);
  p = make(), p.b_scale_stride_k = -1;
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_STRIDE);
}

TEST(Validate, AliasingScaleStrides) {
  // make(): M = 4, K/128 = 4, ceil(N/128) = 2.
  const int64_t a_bad[][2] = {{1, 1}, {2, 1}, {1, 3}, {4, 4}, {3, 2}};
  for (const auto& s : a_bad) {
    Problem p = make();
    p.a_scale_stride_m = s[0], p.a_scale_stride_k = s[1];
    EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_STRIDE) << "a_scale " << s[0] << ", " << s[1];
  }
  const int64_t b_bad[][2] = {{1, 1}, {3, 1}, {2, 2}};  // (n, k) with NB = 2, KB = 4: (1, 1) and (3, 1) collide
  for (const auto& s : b_bad) {
    Problem p = make();
    p.b_scale_stride_n = s[0], p.b_scale_stride_k = s[1];
    EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_STRIDE) << "b_scale " << s[0] << ", " << s[1];
  }
  // The boundaries: exactly non-overlapping is fine.
  Problem p = make();
  p.a_scale_stride_m = 4, p.a_scale_stride_k = 1;
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
  p.a_scale_stride_m = 1, p.a_scale_stride_k = 4;
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
  p.b_scale_stride_n = 1, p.b_scale_stride_k = 2;
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
}

TEST(Validate, ExtentOneDimensionIgnoresItsStride) {
  Problem p = make(1);  // M == 1: a_scale_stride_m unused
  p.a_scale_stride_m = -7;
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
  p.a_scale_stride_m = 1, p.a_scale_stride_k = 1;  // column-major with M == 1: strides (1, 1)
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
  p = make(4, 256, 128);  // K / 128 == 1: the k strides unused
  p.a_scale_stride_k = -1, p.b_scale_stride_k = -5;
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
  p = make(4, 128, 512);  // ceil(N / 128) == 1: b_scale_stride_n unused
  p.b_scale_stride_n = -3;
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
  p.b_scale_stride_n = 1;  // (1, 1)
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
}

TEST(Validate, StridesAreCheckedBeforeAlignment) {
  Problem p = make();
  p.ldc = 1, p.c = cat(kC + 1);
  EXPECT_STATUS(p, BLOCKFP8_ERROR_INVALID_STRIDE);
}

// ---- alignment -----------------------------------------------------------------------------------

TEST(Validate, Misaligned) {
  Problem p = make(4, 256, 512, BLOCKFP8_DTYPE_BF16);
  p.c = cat(kC + 1);
  EXPECT_STATUS(p, BLOCKFP8_ERROR_MISALIGNED);
  p = make(4, 256, 512, BLOCKFP8_DTYPE_FP16), p.c = cat(kC + 3);
  EXPECT_STATUS(p, BLOCKFP8_ERROR_MISALIGNED);
  p = make(4, 256, 512, BLOCKFP8_DTYPE_FP32), p.c = cat(kC + 2);
  EXPECT_STATUS(p, BLOCKFP8_ERROR_MISALIGNED);
  p = make(4, 256, 512, BLOCKFP8_DTYPE_FP32), p.c = cat(kC + 1);
  EXPECT_STATUS(p, BLOCKFP8_ERROR_MISALIGNED);
  p = make(), p.a_scale = fat(kAScale + 2);
  EXPECT_STATUS(p, BLOCKFP8_ERROR_MISALIGNED);
  p = make(), p.b_scale = fat(kBScale + 1);
  EXPECT_STATUS(p, BLOCKFP8_ERROR_MISALIGNED);
  p = make(), p.c = cat(kA + 1);  // misaligned and overlapping A: alignment is checked first
  EXPECT_STATUS(p, BLOCKFP8_ERROR_MISALIGNED);
}

// ---- aliasing ------------------------------------------------------------------------------------

TEST(Validate, COverlapsAnInput) {
  // make(): A spans 3 * 512 + 512 = 2048 bytes; C spans (3 * 256 + 256) * 2 = 2048 bytes.
  Problem p = make();
  p.c = cat(kA);
  EXPECT_STATUS(p, BLOCKFP8_ERROR_ALIASING);
  p.c = cat(kA + 2046);  // C's first element on A's last bytes
  EXPECT_STATUS(p, BLOCKFP8_ERROR_ALIASING);
  p.c = cat(kA - 2046);  // C's last element on A's first bytes
  EXPECT_STATUS(p, BLOCKFP8_ERROR_ALIASING);
  p.c = cat(kA + 2048);  // adjacent, after
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
  p.c = cat(kA - 2048);  // adjacent, before
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);

  p = make(), p.c = cat(kB + 1024);
  EXPECT_STATUS(p, BLOCKFP8_ERROR_ALIASING);
  p = make(), p.c = cat(kAScale - 1024);  // a_scale: 16 floats at C's end
  EXPECT_STATUS(p, BLOCKFP8_ERROR_ALIASING);
  p = make(), p.c = cat(kBScale + 4);
  EXPECT_STATUS(p, BLOCKFP8_ERROR_ALIASING);
  p = make(), p.b_scale = fat(kC + 512);  // an input inside C
  EXPECT_STATUS(p, BLOCKFP8_ERROR_ALIASING);
}

TEST(Validate, InputInsideCsRowPaddingIsAliasing) {
  // C's range is [c, c + ((M - 1) * ldc + N) * size): the gaps between rows count (conservative).
  Problem p = make();
  p.ldc = 1024;
  p.a_scale = fat(kC + 2 * 256 + 64);  // inside row 0's padding
  EXPECT_STATUS(p, BLOCKFP8_ERROR_ALIASING);
  p.a_scale = fat(kC + (3 * 1024 + 256) * 2);  // just past the last element
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
}

TEST(Validate, ScaleExtentsFollowTheirStrides) {
  // a_scale column-major (1, M): 16 floats = 64 bytes, ending where C may begin.
  Problem p = make();
  p.a_scale_stride_m = 1, p.a_scale_stride_k = 4;
  p.c = cat(kAScale + 64);
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
  p.c = cat(kAScale + 60);
  EXPECT_STATUS(p, BLOCKFP8_ERROR_ALIASING);
  // Broadcast (0, 0): a single float.
  p.a_scale_stride_m = 0, p.a_scale_stride_k = 0;
  p.c = cat(kAScale + 4);
  EXPECT_STATUS(p, BLOCKFP8_SUCCESS);
  p.c = cat(kAScale);
  EXPECT_STATUS(p, BLOCKFP8_ERROR_ALIASING);
}

}  // namespace
