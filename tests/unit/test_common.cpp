// The test suites' own helpers: e4m3 / bf16 / fp16 conversions (checked against CUDA's host-side
// conversions, which are independent code), the random generator, and the CPU reference GEMM.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <vector>

#include "fp8.h"
#include "random.h"
#include "reference.h"

namespace bf8test {
namespace {

float cuda_e4m3_to_float(uint8_t v) {
  const __half_raw h = __nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t(v), __NV_E4M3);
  return __half2float(__half(h));
}

uint8_t cuda_float_to_e4m3(float x) { return uint8_t(__nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3)); }

TEST(Fp8, KnownValues) {
  EXPECT_EQ(e4m3_to_float(0x00), 0.f);
  EXPECT_TRUE(std::signbit(e4m3_to_float(0x80)));
  EXPECT_EQ(e4m3_to_float(0x38), 1.f);
  EXPECT_EQ(e4m3_to_float(0xb8), -1.f);
  EXPECT_EQ(e4m3_to_float(0x7e), 448.f);
  EXPECT_EQ(e4m3_to_float(0xfe), -448.f);
  EXPECT_EQ(e4m3_to_float(0x08), 0x1p-6f);
  EXPECT_EQ(e4m3_to_float(0x01), 0x1p-9f);
  EXPECT_EQ(e4m3_to_float(0x07), 7 * 0x1p-9f);
  EXPECT_EQ(e4m3_to_float(0x3c), 1.5f);
  EXPECT_TRUE(std::isnan(e4m3_to_float(0x7f)));
  EXPECT_TRUE(std::isnan(e4m3_to_float(0xff)));
  EXPECT_TRUE(e4m3_is_nan(0x7f) && e4m3_is_nan(0xff) && !e4m3_is_nan(0x7e) && !e4m3_is_nan(0xfe));
}

TEST(Fp8, DecodeMatchesCuda) {
  for (int v = 0; v < 256; ++v) {
    const float ours = e4m3_to_float(uint8_t(v)), cuda = cuda_e4m3_to_float(uint8_t(v));
    if (std::isnan(cuda)) {
      EXPECT_TRUE(std::isnan(ours)) << v;
    } else {
      EXPECT_EQ(bits_from_float(ours), bits_from_float(cuda)) << v;
    }
  }
}

TEST(Fp8, RoundTripsEveryCode) {
  for (int v = 0; v < 256; ++v) {
    if (e4m3_is_nan(uint8_t(v))) continue;
    EXPECT_EQ(float_to_e4m3(e4m3_to_float(uint8_t(v))), v);
  }
}

TEST(Fp8, EncodeRoundsToNearestEvenAndSaturates) {
  EXPECT_EQ(float_to_e4m3(1.0625f), 0x38);     // halfway 1 and 1.125: to even (1)
  EXPECT_EQ(float_to_e4m3(1.1875f), 0x3a);     // halfway 1.125 and 1.25: to even (1.25)
  EXPECT_EQ(float_to_e4m3(1.07f), 0x39);
  EXPECT_EQ(float_to_e4m3(0x1p-10f), 0x00);    // half the smallest subnormal: to even (0)
  EXPECT_EQ(float_to_e4m3(3 * 0x1p-10f), 0x02);
  EXPECT_EQ(float_to_e4m3(15 * 0x1p-10f), 0x08);  // rounds up out of the subnormals
  EXPECT_EQ(float_to_e4m3(464.f), 0x7e);
  EXPECT_EQ(float_to_e4m3(1e6f), 0x7e);
  EXPECT_EQ(float_to_e4m3(-1e6f), 0xfe);
  EXPECT_EQ(float_to_e4m3(INFINITY), 0x7e);
  EXPECT_EQ(float_to_e4m3(-INFINITY), 0xfe);
  EXPECT_EQ(float_to_e4m3(std::numeric_limits<float>::quiet_NaN()), 0x7f);
  EXPECT_EQ(float_to_e4m3(-std::numeric_limits<float>::quiet_NaN()), 0xff);
}

TEST(Fp8, EncodeMatchesCudaSatfinite) {
  // Every midpoint between neighbouring codes and its neighbours, then random floats.
  std::vector<float> xs;
  for (int v = 0; v < 0x7e; ++v) {
    const float lo = e4m3_to_float(uint8_t(v)), hi = e4m3_to_float(uint8_t(v + 1));
    const float mid = (lo + hi) / 2;
    for (float x : {lo, mid, std::nextafter(mid, 0.f), std::nextafter(mid, 1e9f)}) xs.push_back(x), xs.push_back(-x);
  }
  const uint64_t seed = test_seed();
  for (uint64_t i = 0; i < 200000; ++i) {
    const float x = float_from_bits(uint32_t(random_u64(seed, i)));
    if (!std::isnan(x)) xs.push_back(x);
    xs.push_back(float(std::ldexp(random_unit(seed, i + (1ull << 40)) * 2 - 1, int(i % 24) - 12)));
  }
  for (float x : xs) ASSERT_EQ(float_to_e4m3(x), cuda_float_to_e4m3(x)) << "x = " << x << " seed " << seed;
}

TEST(HalfFloats, MatchCuda) {
  const uint64_t seed = test_seed();
  std::vector<float> xs = {0.f, -0.f, 1.f, 65504.f, 65519.f, 65520.f, 1e-8f, 0x1p-24f, 0x1p-25f, 3 * 0x1p-26f,
                           0x1p-14f, 3.0e38f, INFINITY, -INFINITY, 1.00390625f, 1.01171875f, 1.0009765625f};
  for (uint64_t i = 0; i < 200000; ++i) {
    xs.push_back(float_from_bits(uint32_t(random_u64(seed, i))));
    xs.push_back(float(std::ldexp(random_unit(seed, i + (1ull << 40)) * 2 - 1, int(i % 60) - 30)));
  }
  for (float x : xs) {
    if (std::isnan(x)) continue;
    const __nv_bfloat16 b = __float2bfloat16_rn(x);
    const __half h = __float2half_rn(x);
    uint16_t b_bits, h_bits;
    std::memcpy(&b_bits, &b, 2);
    std::memcpy(&h_bits, &h, 2);
    ASSERT_EQ(float_to_bf16(x), b_bits) << x;
    ASSERT_EQ(float_to_fp16(x), h_bits) << x;
    ASSERT_EQ(bits_from_float(bf16_to_float(b_bits)), bits_from_float(__bfloat162float(b))) << x;
    ASSERT_EQ(bits_from_float(fp16_to_float(h_bits)), bits_from_float(__half2float(h))) << x;
  }
  EXPECT_TRUE(std::isnan(bf16_to_float(0xffff)));  // the poison pattern is a NaN in both formats
  EXPECT_TRUE(std::isnan(fp16_to_float(0xffff)));
  EXPECT_TRUE(std::isnan(bf16_to_float(float_to_bf16(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_TRUE(std::isnan(fp16_to_float(float_to_fp16(std::numeric_limits<float>::quiet_NaN()))));
}

TEST(Random, E4m3CoversEveryNonNaNCode) {
  const uint64_t seed = derive_seed(test_seed(), 1);
  std::set<int> seen;
  for (uint64_t i = 0; i < 100000; ++i) {
    const uint8_t v = random_e4m3(seed, i);
    ASSERT_FALSE(e4m3_is_nan(v)) << "seed " << seed;
    seen.insert(v);
  }
  EXPECT_EQ(seen.size(), 254u);
}

TEST(Random, ScalesInRange) {
  const uint64_t seed = derive_seed(test_seed(), 2);
  for (uint64_t i = 0; i < 10000; ++i) {
    const float s = random_scale(seed, i, -8, -4);
    ASSERT_GE(s, 0x1p-8f);
    ASSERT_LE(s, 0x1p-4f);
  }
  EXPECT_NE(derive_seed(1, 1), derive_seed(1, 2));
  EXPECT_NE(random_u64(1, 0), random_u64(2, 0));
}

// A problem whose result is known in closed form: A[m, k] = 1 (0x38), B[n, k] = 2 (0x40) for the
// first 3 k of every block and 0 otherwise, scales powers of two. C[m, n] = sum_kb 6 * sa(m, kb) * sb(n/128, kb).
TEST(Reference, ClosedForm) {
  const int64_t m_count = 3, n_count = 130, k = 256, kb_count = 2, nb_count = 2;
  const int64_t lda = k + 5, ldb = k + 16;
  std::vector<uint8_t> a(size_t(m_count * lda), kE4m3NaN), b(size_t(n_count * ldb), kE4m3NaN);
  for (int64_t m = 0; m < m_count; ++m)
    for (int64_t kk = 0; kk < k; ++kk) a[size_t(m * lda + kk)] = 0x38;
  for (int64_t n = 0; n < n_count; ++n)
    for (int64_t kk = 0; kk < k; ++kk) b[size_t(n * ldb + kk)] = (kk % 128) < 3 ? 0x40 : 0x00;
  // a_scale column-major (1, M); b_scale row-major with padding (KB + 1, 1).
  std::vector<float> sa(size_t(m_count * kb_count)), sb(size_t(nb_count * (kb_count + 1)), NAN);
  auto sa_at = [&](int64_t m, int64_t kb) { return std::ldexp(1.f, int(m + 2 * kb)); };
  auto sb_at = [&](int64_t nb, int64_t kb) { return std::ldexp(1.f, -int(nb + 3 * kb)); };
  for (int64_t m = 0; m < m_count; ++m)
    for (int64_t kb = 0; kb < kb_count; ++kb) sa[size_t(m + kb * m_count)] = sa_at(m, kb);
  for (int64_t nb = 0; nb < nb_count; ++nb)
    for (int64_t kb = 0; kb < kb_count; ++kb) sb[size_t(nb * (kb_count + 1) + kb)] = sb_at(nb, kb);

  GemmOperands p;
  p.m = m_count, p.n = n_count, p.k = k;
  p.a = a.data(), p.lda = lda, p.a_scale = sa.data(), p.a_scale_stride_m = 1, p.a_scale_stride_k = m_count;
  p.b = b.data(), p.ldb = ldb, p.b_scale = sb.data(), p.b_scale_stride_n = kb_count + 1, p.b_scale_stride_k = 1;
  std::vector<double> out;
  reference_gemm(p, out);
  ASSERT_EQ(out.size(), size_t(m_count * n_count));
  for (int64_t m = 0; m < m_count; ++m)
    for (int64_t n = 0; n < n_count; ++n) {
      double want = 0;
      for (int64_t kb = 0; kb < kb_count; ++kb) want += 6.0 * sa_at(m, kb) * sb_at(n / 128, kb);
      EXPECT_EQ(out[size_t(m * n_count + n)], want) << m << ", " << n;
    }

  // The dtype-rounded, strided store.
  const int64_t ldc = n_count + 3;
  for (auto t : {BLOCKFP8_DTYPE_BF16, BLOCKFP8_DTYPE_FP16, BLOCKFP8_DTYPE_FP32}) {
    std::vector<uint8_t> c(size_t(m_count * ldc * dtype_bytes(t)), 0xff);
    reference_gemm(p, c.data(), ldc, t);
    for (int64_t m = 0; m < m_count; ++m)
      for (int64_t n = 0; n < ldc; ++n) {
        const double got = load_output(c.data(), m * ldc + n, t);
        if (n >= n_count) {
          EXPECT_TRUE(std::isnan(got)) << "padding written";
        } else {
          EXPECT_EQ(got, out[size_t(m * n_count + n)]) << dtype_name(t);  // powers of two: exact
        }
      }
  }
}

// The reference against a naive sum over k with random data: the two orders agree to double rounding.
TEST(Reference, MatchesNaiveSum) {
  const int64_t m_count = 5, n_count = 200, k = 384;
  const uint64_t seed = derive_seed(test_seed(), 3);
  std::vector<uint8_t> a(size_t(m_count * k)), b(size_t(n_count * k));
  for (size_t i = 0; i < a.size(); ++i) a[i] = random_e4m3(seed, i);
  for (size_t i = 0; i < b.size(); ++i) b[i] = random_e4m3(seed, i + (1u << 20));
  std::vector<float> sa(size_t(m_count * 3)), sb(size_t(2 * 3));
  for (size_t i = 0; i < sa.size(); ++i) sa[i] = random_scale(seed, i + (2u << 20), -8, -4);
  for (size_t i = 0; i < sb.size(); ++i) sb[i] = random_scale(seed, i + (3u << 20), -8, -4);
  GemmOperands p;
  p.m = m_count, p.n = n_count, p.k = k;
  p.a = a.data(), p.lda = k, p.a_scale = sa.data(), p.a_scale_stride_m = 3, p.a_scale_stride_k = 1;
  p.b = b.data(), p.ldb = k, p.b_scale = sb.data(), p.b_scale_stride_n = 3, p.b_scale_stride_k = 1;
  std::vector<double> out;
  reference_gemm(p, out);
  for (int64_t m = 0; m < m_count; ++m)
    for (int64_t n = 0; n < n_count; ++n) {
      long double want = 0;
      for (int64_t kk = 0; kk < k; ++kk)
        want += (long double)e4m3_to_float(a[size_t(m * k + kk)]) * e4m3_to_float(b[size_t(n * k + kk)]) *
                sa[size_t(m * 3 + kk / 128)] * sb[size_t((n / 128) * 3 + kk / 128)];
      const double got = out[size_t(m * n_count + n)];
      EXPECT_NEAR(got, double(want), 1e-12 * (std::fabs(double(want)) + 1e3)) << "seed " << seed;
    }
}

// One output whose 128 terms cancel exactly: reference 0, natural size sqrt(sum of squared terms).
TEST(Reference, ScaleIsTheTermsNaturalSize) {
  std::vector<uint8_t> a(128, 0x38), b(128);  // e4m3 1.0; b: +-1.0 alternating
  for (int k = 0; k < 128; ++k) b[size_t(k)] = k % 2 ? 0xB8 : 0x38;
  const float sa = 0.5f, sb = 3.0f;
  const GemmOperands p{1, 1, 128, a.data(), 128, &sa, 1, 1, b.data(), 128, &sb, 1, 1};
  std::vector<double> out;
  reference_gemm(p, out);
  EXPECT_EQ(out[0], 0.0);
  EXPECT_NEAR(reference_scale(p), std::sqrt(128.0) * 1.5, 1e-12);
}

TEST(Comparison, FlagsUnwrittenAndMeasuresError) {
  const float ref[4] = {1.f, -2.f, 4.f, 0.5f};
  uint16_t c[4] = {float_to_bf16(1.f), float_to_bf16(-2.f), float_to_bf16(4.04f), 0xffff};
  const Comparison r = compare_output(c, 4, BLOCKFP8_DTYPE_BF16, ref, 1, 4);
  EXPECT_EQ(r.unwritten, 1);
  EXPECT_EQ(r.first_unwritten_n, 3);
  EXPECT_EQ(r.worst_n, 2);
  EXPECT_NEAR(r.rel_err(), (bf16_to_float(float_to_bf16(4.04f)) - 4.0) / 4.0, 1e-9);
  EXPECT_FALSE(r.str().empty());
}

}  // namespace
}  // namespace bf8test
