// GPU suite of blockfp8_quantize_1x128: bit-exact against the CPU reference (tests/common/
// quantize_reference.cpp) over bf16 / fp16 / fp32 inputs, FP32 and UE8M0 scales, row- and
// column-major scale layouts, padded rows and unaligned (scalar-path) tensors, on data with all-zero
// rows and groups, values near the dtype's largest finite, denormals, all-negative groups and exact
// e4m3 ties; every padding byte of X_q and every unused scale slot must stay untouched. The division
// by the scale (a reciprocal and two FMA corrections in the kernel) gets its own data: quotients a
// hair from e4m3 rounding midpoints (where an fp32 quotient one ulp off changes the byte), scale
// significands near 2, signed zeros, groups holding an infinity or a NaN. Then end to end: quantise
// random bf16 X, run blockfp8_gemm, compare with a float64 X·Wᵀ.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "blockfp8/blockfp8.h"
#include "fp8.h"
#include "gpu_test_util.h"
#include "quantize_reference.h"
#include "random.h"
#include "reference.h"

namespace bf8test {
namespace {

constexpr uint8_t kQPoison = 0xA5;
constexpr uint32_t kScalePoison = 0xFFFFFFFFu;  // a NaN: no scale the kernel writes

// Stores float v at element idx of a host buffer of dtype t (rounded to nearest even): store_output.
void put(std::vector<uint8_t>& buf, int64_t idx, blockfp8_dtype_t t, float v) { store_output(buf.data(), idx, t, v); }
// Stores a raw bit pattern (the low 16 bits for bf16 / fp16).
void put_bits(std::vector<uint8_t>& buf, int64_t idx, blockfp8_dtype_t t, uint32_t bits) {
  if (t == BLOCKFP8_DTYPE_FP32) {
    std::memcpy(buf.data() + idx * 4, &bits, 4);
  } else {
    const uint16_t h = uint16_t(bits);
    std::memcpy(buf.data() + idx * 2, &h, 2);
  }
}

// Largest finite value and the largest subnormal's bit pattern (positive) of dtype t.
float dtype_max(blockfp8_dtype_t t) {
  return t == BLOCKFP8_DTYPE_FP32 ? 3.4028234e38f : t == BLOCKFP8_DTYPE_BF16 ? 3.3895314e38f : 65504.0f;
}
uint32_t max_subnormal_bits(blockfp8_dtype_t t) {
  return t == BLOCKFP8_DTYPE_FP32 ? 0x007fffffu : t == BLOCKFP8_DTYPE_BF16 ? 0x007fu : 0x03ffu;
}
uint32_t sign_bit(blockfp8_dtype_t t) { return t == BLOCKFP8_DTYPE_FP32 ? 0x80000000u : 0x8000u; }

// Fills X [m][ldx] (padding included, with huge values a kernel reading it would notice in amax).
// Each group draws one of several kinds; row 1 (if any) is all zeros.
void fill_x(std::vector<uint8_t>& x, int64_t m, int64_t k, int64_t ldx, blockfp8_dtype_t t, uint64_t seed) {
  const float big = dtype_max(t);
  for (int64_t r = 0; r < m; ++r)
    for (int64_t c = k; c < ldx; ++c) put(x, r * ldx + c, t, big);
  uint64_t ctr = 0;
  auto unit = [&] { return random_unit(seed, ctr++); };
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t kb = 0; kb < k / 128; ++kb) {
      const int kind = r == 1 ? 1 : int(random_u64(seed ^ 0x5157, uint64_t(r * 1000003 + kb)) % 8);
      // Group magnitude 2^[-20, 20) (fp16: 2^[-14, 10), to stay finite).
      const float mag = t == BLOCKFP8_DTYPE_FP16 ? std::ldexp(1.0f, int(unit() * 24) - 14)
                                                 : std::ldexp(1.0f, int(unit() * 40) - 20);
      for (int i = 0; i < 128; ++i) {
        const int64_t idx = r * ldx + kb * 128 + i;
        const float sgn = unit() < 0.5 ? -1.0f : 1.0f;
        switch (kind) {
          case 0:  // ordinary: uniform in (-mag, mag) with a spread of exponents
          case 7:
            put(x, idx, t, sgn * mag * float(unit()) * std::ldexp(1.0f, -int(unit() * 6)));
            break;
          case 1:  // all zeros (signed)
            put(x, idx, t, sgn * 0.0f);
            break;
          case 2:  // extremes: near the largest finite, mixed with ordinary values
            put(x, idx, t, i % 3 == 0 ? sgn * big * float(1.0 - 0.01 * unit()) : sgn * float(unit()));
            break;
          case 3: {  // subnormals of the input dtype (and a few zeros)
            const uint32_t mant = uint32_t(random_u64(seed, ctr++) % (max_subnormal_bits(t) + 1));
            put_bits(x, idx, t, mant | (sgn < 0 ? sign_bit(t) : 0));
            break;
          }
          case 4:  // all negative
            put(x, idx, t, -mag * float(0.001 + unit()));
            break;
          case 5: {  // amax exactly 448 (scale 1 in both formats), the rest on e4m3 midpoints: RNE ties
            if (i == 0) {
              put(x, idx, t, sgn * 448.0f);
            } else {
              const uint8_t code = uint8_t(random_u64(seed, ctr++) % 0x7d);  // 0..0x7c: code + 1 is finite
              const float mid = 0.5f * (e4m3_to_float(code) + e4m3_to_float(uint8_t(code + 1)));
              put(x, idx, t, sgn * mid);  // exact in bf16 / fp16 / fp32
            }
            break;
          }
          case 6: {  // random finite bit patterns: the whole exponent range within one group
            uint32_t bits;
            do {
              bits = uint32_t(random_u64(seed, ctr++));
              if (t != BLOCKFP8_DTYPE_FP32) bits &= 0xffffu;
            } while ((t == BLOCKFP8_DTYPE_FP32 && (bits & 0x7f800000u) == 0x7f800000u) ||
                     (t == BLOCKFP8_DTYPE_BF16 && (bits & 0x7f80u) == 0x7f80u) ||
                     (t == BLOCKFP8_DTYPE_FP16 && (bits & 0x7c00u) == 0x7c00u));
            put_bits(x, idx, t, bits);
            break;
          }
        }
      }
    }
  }
}

// Data aimed at the division x / s (fill_x's signature). Per group, one of:
//   0, 1: next to e4m3 midpoints: amax (element 0) with a random, often all-ones-heavy significand,
//         s = amax / 448 as the kernel computes it, every other element x = RN(s * mu) (+-1 ulp) for
//         a random e4m3 midpoint mu, so x / s lands within an fp32 ulp or two of mu (exact for fp32
//         inputs; bf16 / fp16 round x further, which still leaves ordinary values);
//   2:    an infinity (s = inf: every finite x gives a signed zero, the inf gives NaN -> -448);
//   3:    NaNs and signed zeros among ordinary values (fmaxf drops a NaN from amax).
void fill_division(std::vector<uint8_t>& x, int64_t m, int64_t k, int64_t ldx, blockfp8_dtype_t t, uint64_t seed) {
  for (int64_t r = 0; r < m; ++r)
    for (int64_t c = k; c < ldx; ++c) put(x, r * ldx + c, t, dtype_max(t));
  const float lo = t == BLOCKFP8_DTYPE_FP16 ? -10.0f : -30.0f, hi = t == BLOCKFP8_DTYPE_FP16 ? 15.0f : 30.0f;
  uint64_t ctr = 0;
  auto next = [&] { return random_u64(seed, ctr++); };
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t kb = 0; kb < k / 128; ++kb) {
      const int64_t base = r * ldx + kb * 128;
      const int kind = int(next() % 4);
      uint32_t mant = uint32_t(next() & 0x7fffff);
      if (next() & 1) mant |= 0x7ff000u;  // significands near 2: the proof's thinnest margin
      const int e = int(lo + (hi - lo) * random_unit(seed, ctr++));
      const float amax = std::ldexp(float_from_bits(0x3f800000u | mant), e);
      for (int i = 0; i < 128; ++i) {
        const uint64_t h = next();
        const float sgn = h & 1 ? -1.0f : 1.0f;
        float v;
        if (kind <= 1) {
          const float s = amax / 448.0f;  // what the kernel divides by (fp32 scales)
          const uint8_t code = uint8_t((h >> 8) % 0x7d);
          const double mu = 0.5 * (double(e4m3_to_float(code)) + double(e4m3_to_float(uint8_t(code + 1))));
          v = float(double(s) * mu);
          if ((h >> 16) % 3 == 1) v = std::nextafter(v, 0.0f);
          if ((h >> 16) % 3 == 2) v = std::nextafter(v, 2.0f * v);
          v = i == 0 ? amax : v;
        } else if (kind == 2) {
          v = i == 5 ? INFINITY : float(random_unit(seed, h)) * amax;
        } else {
          v = (h >> 8) % 7 == 0 ? NAN : (h >> 8) % 7 == 1 ? 0.0f : float(random_unit(seed, h)) * amax;
        }
        put(x, base + i, t, sgn * v);
      }
    }
  }
}

struct QCase {
  int64_t m, k;
  blockfp8_dtype_t dtype;
  blockfp8_scale_format_t fmt;
  bool col_major;    // scales strides (1, M) instead of (K/128, 1)
  int64_t ld_pad;    // ldx = ldq = K + pad
  int64_t x_offset;  // elements added to X's base (odd: the scalar path)
  int64_t q_offset;  // bytes added to X_q's base
  std::string str() const {
    return "M=" + std::to_string(m) + " K=" + std::to_string(k) + " " + dtype_name(dtype) +
           (fmt == BLOCKFP8_SCALE_UE8M0 ? " ue8m0" : " fp32-scale") + (col_major ? " col" : " row") +
           " pad=" + std::to_string(ld_pad) + " xoff=" + std::to_string(x_offset) + " qoff=" + std::to_string(q_offset);
  }
};

using Filler = void (*)(std::vector<uint8_t>&, int64_t, int64_t, int64_t, blockfp8_dtype_t, uint64_t);

void run_case(const QCase& c, uint64_t seed, Filler fill = fill_x) {
  SCOPED_TRACE(c.str());
  const int64_t kb = c.k / 128, ldx = c.k + c.ld_pad, ldq = c.k + c.ld_pad, eb = dtype_bytes(c.dtype);
  std::vector<uint8_t> hx(size_t((c.m * ldx + c.x_offset) * eb));
  std::vector<uint8_t> body(size_t(c.m * ldx * eb));
  fill(body, c.m, c.k, ldx, c.dtype, seed);
  std::copy(body.begin(), body.end(), hx.begin() + c.x_offset * eb);

  const int64_t q_bytes = c.m * ldq + c.q_offset + 64;  // 64-byte guard after the last row
  const int64_t s_count = c.m * kb + 16;                // 16 guard slots
  const int64_t ss_m = c.col_major ? 1 : kb, ss_k = c.col_major ? c.m : 1;

  DeviceBuffer dx, dq, ds;
  CUDA_ASSERT(dx.alloc(hx.size()));
  CUDA_ASSERT(dq.alloc(size_t(q_bytes)));
  CUDA_ASSERT(ds.alloc(size_t(s_count * 4)));
  CUDA_ASSERT(cudaMemcpy(dx.get(), hx.data(), hx.size(), cudaMemcpyHostToDevice));
  CUDA_ASSERT(cudaMemset(dq.get(), kQPoison, size_t(q_bytes)));
  CUDA_ASSERT(cudaMemset(ds.get(), 0xFF, size_t(s_count * 4)));

  const void* x = dx.get() + c.x_offset * eb;
  uint8_t* q = dq.get() + c.q_offset;
  ASSERT_EQ(blockfp8_quantize_1x128(c.m, c.k, x, ldx, c.dtype, q, ldq, ds.get<float>(), ss_m, ss_k, c.fmt, nullptr),
            BLOCKFP8_SUCCESS);
  CUDA_ASSERT(cudaDeviceSynchronize());

  std::vector<uint8_t> gq(static_cast<size_t>(q_bytes));
  std::vector<uint32_t> gs(static_cast<size_t>(s_count));
  CUDA_ASSERT(cudaMemcpy(gq.data(), dq.get(), gq.size(), cudaMemcpyDeviceToHost));
  CUDA_ASSERT(cudaMemcpy(gs.data(), ds.get(), gs.size() * 4, cudaMemcpyDeviceToHost));

  std::vector<uint8_t> rq;
  std::vector<float> rs;
  reference_quantize_1x128(c.m, c.k, body.data(), ldx, c.dtype, c.fmt == BLOCKFP8_SCALE_UE8M0, rq, rs);

  int64_t bad_q = 0, bad_s = 0, bad_guard = 0;
  for (int64_t i = 0; i < q_bytes; ++i) {
    const int64_t j = i - c.q_offset, r = j / ldq, col = j % ldq;
    const bool inside = j >= 0 && r < c.m && col < c.k;
    if (!inside) {
      if (gq[size_t(i)] != kQPoison && bad_guard++ < 5)
        ADD_FAILURE() << "X_q byte " << i << " outside the tensor written";
      continue;
    }
    const uint8_t want = rq[size_t(r * c.k + col)];
    if (gq[size_t(i)] != want && bad_q++ < 10) {
      const int64_t g = r * kb + col / 128;
      ADD_FAILURE() << "X_q[" << r << ", " << col << "] = 0x" << std::hex << int(gq[size_t(i)]) << ", want 0x"
                    << int(want) << std::dec << " (x = " << load_output(body.data(), r * ldx + col, c.dtype)
                    << ", scale " << rs[size_t(g)] << ")";
    }
  }
  std::vector<bool> used(static_cast<size_t>(s_count), false);
  for (int64_t r = 0; r < c.m; ++r) {
    for (int64_t b = 0; b < kb; ++b) {
      const int64_t at = r * ss_m + b * ss_k;
      used[size_t(at)] = true;
      uint32_t want;
      std::memcpy(&want, &rs[size_t(r * kb + b)], 4);
      if (gs[size_t(at)] != want && bad_s++ < 10)
        ADD_FAILURE() << "scale[" << r << ", " << b << "] bits 0x" << std::hex << gs[size_t(at)] << ", want 0x" << want;
    }
  }
  for (int64_t i = 0; i < s_count; ++i)
    if (!used[size_t(i)] && gs[size_t(i)] != kScalePoison && bad_guard++ < 5)
      ADD_FAILURE() << "scale slot " << i << " written";
  EXPECT_EQ(bad_q, 0) << "X_q bytes differing from the reference";
  EXPECT_EQ(bad_s, 0) << "scales differing from the reference";
  EXPECT_EQ(bad_guard, 0) << "bytes outside the outputs written";
}

TEST(Quantize1x128, BitExactAgainstReference) {
  BF8T_REQUIRE_HOPPER();
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  // K/128 of 1, 2, 3, 5, 7, 12, 16, 56: every choice of groups per warp item, with and without idle slots.
  const int64_t shapes[][2] = {{1, 128}, {2, 256}, {130, 384}, {300, 640}, {5, 896}, {17, 1536}, {64, 2048}, {3, 7168}};
  uint64_t salt = 0;
  for (auto [m, k] : shapes)
    for (auto t : {BLOCKFP8_DTYPE_BF16, BLOCKFP8_DTYPE_FP16, BLOCKFP8_DTYPE_FP32})
      for (auto fmt : {BLOCKFP8_SCALE_FP32, BLOCKFP8_SCALE_UE8M0})
        for (int layout = 0; layout < 3; ++layout) {
          QCase c{m, k, t, fmt, layout == 1, 0, 0, 0};
          if (layout == 2) c.ld_pad = 3, c.x_offset = 1, c.q_offset = 5;  // unaligned everything: scalar path
          if (layout == 1 && m > 2) c.ld_pad = 16;                        // padded rows, still vector path
          run_case(c, derive_seed(seed, ++salt));
          if (HasFatalFailure()) return;
        }
}

// The division's hard cases, through both kernel paths (vector and scalar) and both scale formats
// (UE8M0 divides by a power of two, exactly: the same data must pass there too).
TEST(Quantize1x128, DivisionHardCases) {
  BF8T_REQUIRE_HOPPER();
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  uint64_t salt = 300;
  for (auto t : {BLOCKFP8_DTYPE_FP32, BLOCKFP8_DTYPE_BF16, BLOCKFP8_DTYPE_FP16})
    for (auto fmt : {BLOCKFP8_SCALE_FP32, BLOCKFP8_SCALE_UE8M0})
      for (bool scalar : {false, true}) {
        QCase c{257, 2048, t, fmt, false, 0, 0, 0};
        if (scalar) c.ld_pad = 3, c.x_offset = 1, c.q_offset = 5;
        run_case(c, derive_seed(seed, ++salt), fill_division);
        if (HasFatalFailure()) return;
      }
}

TEST(Quantize1x128, LargeProblem) {  // many CTAs, the shape of the bandwidth goal
  BF8T_REQUIRE_HOPPER();
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  run_case(QCase{4096, 7168, BLOCKFP8_DTYPE_BF16, BLOCKFP8_SCALE_FP32, false, 0, 0, 0}, derive_seed(seed, 101));
  run_case(QCase{1000, 7168, BLOCKFP8_DTYPE_BF16, BLOCKFP8_SCALE_UE8M0, true, 0, 0, 0}, derive_seed(seed, 102));
}

// Quantise random bf16 X, multiply by a random e4m3 weight with blockfp8_gemm, compare with float64
// X·Wᵀ (W = B * b_scale). Two checks: against the dequantised X_q the GEMM is exact up to its own
// rounding (test_gemm.cpp's fp32 tolerance); against the original X the error is e4m3's (3 mantissa bits: about 2.5% of
// max|ref| on Gaussian data, measured), bounded by 4e-2.
TEST(Quantize1x128, EndToEndWithGemm) {
  BF8T_REQUIRE_HOPPER();
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (bool col_major : {false, true}) {
    for (auto fmt : {BLOCKFP8_SCALE_FP32, BLOCKFP8_SCALE_UE8M0}) {
      const int64_t m = 48, n = 320, k = 1024, kb = k / 128, nb = (n + 127) / 128;
      SCOPED_TRACE(std::string(col_major ? "col" : "row") + (fmt == BLOCKFP8_SCALE_UE8M0 ? " ue8m0" : " fp32"));
      const uint64_t sx = derive_seed(seed, 201), sb = derive_seed(seed, 202), ss = derive_seed(seed, 203);
      std::vector<uint16_t> hx(size_t(m * k));
      std::vector<float> xf(size_t(m * k));
      for (int64_t i = 0; i < m * k; ++i) {  // approximately normal: sum of 4 uniforms
        const double u = random_unit(sx, 4 * i) + random_unit(sx, 4 * i + 1) + random_unit(sx, 4 * i + 2) +
                         random_unit(sx, 4 * i + 3) - 2.0;
        hx[size_t(i)] = float_to_bf16(float(u * 1.7));
        xf[size_t(i)] = bf16_to_float(hx[size_t(i)]);
      }
      std::vector<uint8_t> hb(size_t(n * k));
      for (int64_t i = 0; i < n * k; ++i) {
        const double u = random_unit(sb, 2 * i) + random_unit(sb, 2 * i + 1) - 1.0;
        hb[size_t(i)] = float_to_e4m3(float(u * 200.0));
      }
      std::vector<float> hbs(size_t(nb * kb));
      for (int64_t i = 0; i < nb * kb; ++i) hbs[size_t(i)] = random_scale(ss, uint64_t(i), -12, -6);

      DeviceBuffer dx, dq, dsa, db, dbs, dc;
      CUDA_ASSERT(dx.alloc(hx.size() * 2));
      CUDA_ASSERT(dq.alloc(size_t(m * k)));
      CUDA_ASSERT(dsa.alloc(size_t(m * kb * 4)));
      CUDA_ASSERT(db.alloc(hb.size()));
      CUDA_ASSERT(dbs.alloc(hbs.size() * 4));
      CUDA_ASSERT(dc.alloc(size_t(m * n * 4)));
      CUDA_ASSERT(cudaMemcpy(dx.get(), hx.data(), hx.size() * 2, cudaMemcpyHostToDevice));
      CUDA_ASSERT(cudaMemcpy(db.get(), hb.data(), hb.size(), cudaMemcpyHostToDevice));
      CUDA_ASSERT(cudaMemcpy(dbs.get(), hbs.data(), hbs.size() * 4, cudaMemcpyHostToDevice));
      CUDA_ASSERT(cudaMemset(dc.get(), 0xFF, dc.bytes()));  // NaN: an element the GEMM skips shows as unwritten
      const int64_t sa_m = col_major ? 1 : kb, sa_k = col_major ? m : 1;
      ASSERT_EQ(blockfp8_quantize_1x128(m, k, dx.get(), k, BLOCKFP8_DTYPE_BF16, dq.get(), k, dsa.get<float>(), sa_m,
                                        sa_k, fmt, nullptr),
                BLOCKFP8_SUCCESS);
      ASSERT_EQ(blockfp8_gemm(m, n, k, dq.get(), k, dsa.get<float>(), sa_m, sa_k, db.get(), k, dbs.get<float>(), kb, 1,
                              dc.get(), n, BLOCKFP8_DTYPE_FP32, nullptr),
                BLOCKFP8_SUCCESS);
      CUDA_ASSERT(cudaDeviceSynchronize());
      std::vector<float> hc(size_t(m * n));
      std::vector<uint8_t> hq(size_t(m * k));
      std::vector<float> hsa(size_t(m * kb));
      CUDA_ASSERT(cudaMemcpy(hc.data(), dc.get(), hc.size() * 4, cudaMemcpyDeviceToHost));
      CUDA_ASSERT(cudaMemcpy(hq.data(), dq.get(), hq.size(), cudaMemcpyDeviceToHost));
      CUDA_ASSERT(cudaMemcpy(hsa.data(), dsa.get(), hsa.size() * 4, cudaMemcpyDeviceToHost));

      std::vector<double> ref_x(size_t(m * n)), ref_q(size_t(m * n));
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          double acc_x = 0, acc_q = 0;
          for (int64_t kk = 0; kk < k; ++kk) {
            const double w = double(e4m3_to_float(hb[size_t(j * k + kk)])) * hbs[size_t((j / 128) * kb + kk / 128)];
            acc_x += double(xf[size_t(i * k + kk)]) * w;
            acc_q += double(e4m3_to_float(hq[size_t(i * k + kk)])) * hsa[size_t(i * sa_m + (kk / 128) * sa_k)] * w;
          }
          ref_x[size_t(i * n + j)] = acc_x;
          ref_q[size_t(i * n + j)] = acc_q;
        }
      const Comparison cq = compare_output(hc.data(), n, BLOCKFP8_DTYPE_FP32, ref_q.data(), m, n);
      const Comparison cx = compare_output(hc.data(), n, BLOCKFP8_DTYPE_FP32, ref_x.data(), m, n);
      EXPECT_EQ(cq.unwritten + cq.non_finite, 0) << cq.str();
      EXPECT_LE(cq.rel_err(), 5e-3) << "GEMM on the quantiser's output vs float64 of the same: " << cq.str();
      EXPECT_LE(cx.rel_err(), 4e-2) << "vs float64 X·Wᵀ of the unquantised X: " << cx.str();
    }
  }
}

}  // namespace
}  // namespace bf8test
