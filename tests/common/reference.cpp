#include "reference.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <thread>

#include "fp8.h"

namespace bf8test {

float bf16_to_float(uint16_t h) { return float_from_bits(uint32_t(h) << 16); }

uint16_t float_to_bf16(float x) {
  const uint32_t u = bits_from_float(x);
  if (std::isnan(x)) return uint16_t((u >> 16) | 0x0040);  // keep it a (quiet) NaN
  return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);  // round to nearest even; overflow -> inf
}

float fp16_to_float(uint16_t h) {
  const float sign = (h & 0x8000) ? -1.f : 1.f;
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0x1f) return m ? float_from_bits(0x7fc00000u) : sign * INFINITY;
  if (e == 0) return sign * std::ldexp(float(m), -24);
  return sign * std::ldexp(float(1024 + m), e - 25);
}

uint16_t float_to_fp16(float x) {
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  if (std::isnan(x)) return sign | 0x7e00;
  const double a = std::fabs(double(x));
  if (a >= 65520.0) return sign | 0x7c00;  // halfway between 65504 and 2^16 and beyond: inf
  if (a < 0x1p-14) return sign | uint16_t(round_half_even(a * 0x1p24));  // subnormal; 1024 = 2^-14
  int exp = 0;
  std::frexp(a, &exp);  // unbiased exponent exp - 1, in [-14, 15]
  const int q = int(round_half_even(std::ldexp(a, 10 - (exp - 1))));  // 1024..2048; 2048 carries
  return sign | uint16_t(((exp - 1 + 15) << 10) + q - 1024);
}

const char* dtype_name(blockfp8_dtype_t t) {
  switch (t) {
    case BLOCKFP8_DTYPE_BF16: return "bf16";
    case BLOCKFP8_DTYPE_FP16: return "fp16";
    case BLOCKFP8_DTYPE_FP32: return "fp32";
  }
  return "?";
}

double load_output(const void* c, int64_t idx, blockfp8_dtype_t t) {
  if (t == BLOCKFP8_DTYPE_FP32) {
    float f;
    std::memcpy(&f, static_cast<const char*>(c) + idx * 4, 4);
    return f;
  }
  uint16_t h;
  std::memcpy(&h, static_cast<const char*>(c) + idx * 2, 2);
  return t == BLOCKFP8_DTYPE_BF16 ? bf16_to_float(h) : fp16_to_float(h);
}

void store_output(void* c, int64_t idx, blockfp8_dtype_t t, double x) {
  char* dst = static_cast<char*>(c);
  if (t == BLOCKFP8_DTYPE_FP32) {
    const float f = float(x);
    std::memcpy(dst + idx * 4, &f, 4);
    return;
  }
  // double -> float -> 16 bits can double-round; the reference's values are not that close to a tie
  // for it to matter in a 1e-2 comparison.
  const uint16_t h = t == BLOCKFP8_DTYPE_BF16 ? float_to_bf16(float(x)) : float_to_fp16(float(x));
  std::memcpy(dst + idx * 2, &h, 2);
}

void reference_gemm(const GemmOperands& p, std::vector<double>& out) {
  out.assign(size_t(p.m * p.n), 0.0);
  float table[256];
  for (int v = 0; v < 256; ++v) table[v] = e4m3_to_float(uint8_t(v));
  const int64_t total = p.m * p.n, kb_count = p.k / 128;

  auto work = [&](int64_t begin, int64_t end) {
    for (int64_t idx = begin; idx < end; ++idx) {
      const int64_t m = idx / p.n, n = idx % p.n;
      const uint8_t* a = p.a + m * p.lda;
      const uint8_t* b = p.b + n * p.ldb;
      double acc = 0;
      for (int64_t kb = 0; kb < kb_count; ++kb) {
        double block = 0;  // exact: products have 8 significant bits, 128 of them fit in 53
        for (int64_t k = kb * 128; k < kb * 128 + 128; ++k) block += double(table[a[k]] * table[b[k]]);
        const double sa = p.a_scale[m * p.a_scale_stride_m + kb * p.a_scale_stride_k];
        const double sb = p.b_scale[(n / 128) * p.b_scale_stride_n + kb * p.b_scale_stride_k];
        acc += block * sa * sb;
      }
      out[size_t(idx)] = acc;
    }
  };

  const int64_t threads = std::max<int64_t>(1, std::min<int64_t>(std::thread::hardware_concurrency(), total / 256 + 1));
  std::vector<std::thread> pool;
  for (int64_t t = 0; t < threads; ++t) pool.emplace_back(work, total * t / threads, total * (t + 1) / threads);
  for (auto& th : pool) th.join();
}

double reference_scale(const GemmOperands& p) {
  float table[256];
  for (int v = 0; v < 256; ++v) table[v] = e4m3_to_float(uint8_t(v));
  double worst = 0;
  for (int64_t m = 0; m < p.m; ++m) {
    for (int64_t n = 0; n < p.n; ++n) {
      double sum2 = 0;
      for (int64_t kb = 0; kb < p.k / 128; ++kb) {
        double block2 = 0;
        for (int64_t k = kb * 128; k < kb * 128 + 128; ++k) {
          const double t = double(table[p.a[m * p.lda + k]]) * table[p.b[n * p.ldb + k]];
          block2 += t * t;
        }
        const double s = double(p.a_scale[m * p.a_scale_stride_m + kb * p.a_scale_stride_k]) *
                         p.b_scale[(n / 128) * p.b_scale_stride_n + kb * p.b_scale_stride_k];
        sum2 += block2 * s * s;
      }
      worst = std::max(worst, std::sqrt(sum2));
    }
  }
  return worst;
}

void reference_gemm(const GemmOperands& p, void* c, int64_t ldc, blockfp8_dtype_t t) {
  std::vector<double> out;
  reference_gemm(p, out);
  for (int64_t m = 0; m < p.m; ++m)
    for (int64_t n = 0; n < p.n; ++n) store_output(c, m * ldc + n, t, out[size_t(m * p.n + n)]);
}

namespace {

template <class Ref>
Comparison compare(const void* c, int64_t ldc, blockfp8_dtype_t t, const Ref* ref, int64_t m_count, int64_t n_count) {
  Comparison r;
  for (int64_t m = 0; m < m_count; ++m) {
    for (int64_t n = 0; n < n_count; ++n) {
      const double want = double(ref[m * n_count + n]);
      const double got = load_output(c, m * ldc + n, t);
      r.max_abs_ref = std::max(r.max_abs_ref, std::fabs(want));
      if (std::isnan(got)) {
        if (r.unwritten++ == 0) r.first_unwritten_m = m, r.first_unwritten_n = n;
        continue;
      }
      if (std::isinf(got)) {
        ++r.non_finite;
        continue;
      }
      const double err = std::fabs(got - want);
      if (r.worst_m < 0 || err > r.max_abs_err)
        r.max_abs_err = err, r.worst_m = m, r.worst_n = n, r.worst_got = got, r.worst_ref = want;
    }
  }
  return r;
}

}  // namespace

Comparison compare_output(const void* c, int64_t ldc, blockfp8_dtype_t t, const double* ref, int64_t m, int64_t n) {
  return compare(c, ldc, t, ref, m, n);
}
Comparison compare_output(const void* c, int64_t ldc, blockfp8_dtype_t t, const float* ref, int64_t m, int64_t n) {
  return compare(c, ldc, t, ref, m, n);
}

std::string Comparison::str() const {
  char buf[320];
  int len = std::snprintf(buf, sizeof buf,
                          "max|C-ref|/max|ref| = %.3e (max|C-ref| = %.4g, max|ref| = %.4g; worst at (%lld, %lld): "
                          "got %.6g, want %.6g)",
                          rel_err(), max_abs_err, max_abs_ref, (long long)worst_m, (long long)worst_n, worst_got,
                          worst_ref);
  if (unwritten > 0 && len > 0 && len < int(sizeof buf))
    len += std::snprintf(buf + len, sizeof buf - size_t(len), "; %lld unwritten (NaN), first at (%lld, %lld)",
                         (long long)unwritten, (long long)first_unwritten_m, (long long)first_unwritten_n);
  if (non_finite > 0 && len > 0 && len < int(sizeof buf))
    std::snprintf(buf + len, sizeof buf - size_t(len), "; %lld infinite", (long long)non_finite);
  return buf;
}

}  // namespace bf8test
