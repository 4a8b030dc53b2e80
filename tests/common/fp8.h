// Host (and device) conversions between float and float8 e4m3 ("e4m3fn": bias 7, no infinities,
// NaN = S.1111.111 i.e. 0x7f / 0xff, largest finite 448, smallest subnormal 2^-9).
// Written from the format's definition, independent of the library and of cuda_fp8.h, so that the
// tests do not check the kernels against the same conversion the kernels use.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define BF8T_HD __host__ __device__
#else
#define BF8T_HD
#endif

namespace bf8test {

BF8T_HD inline float float_from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

BF8T_HD inline uint32_t bits_from_float(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

constexpr uint8_t kE4m3NaN = 0x7f;
constexpr uint8_t kE4m3Max = 0x7e;  // 448

BF8T_HD inline bool e4m3_is_nan(uint8_t v) { return (v & 0x7f) == 0x7f; }

// Exact: every e4m3 value is a float.
BF8T_HD inline float e4m3_to_float(uint8_t v) {
  const uint32_t sign = uint32_t(v & 0x80) << 24;
  const uint32_t e = (v >> 3) & 0xf, m = v & 7;
  if (e == 15 && m == 7) return float_from_bits(sign | 0x7fc00000u);
  if (e == 0) {  // subnormal: m * 2^-9
    const float mag = float(m) * 0.001953125f;
    return sign ? -mag : mag;
  }
  return float_from_bits(sign | ((e + 120u) << 23) | (m << 20));  // (1 + m/8) * 2^(e - 7)
}

// x rounded to the nearest integer, ties to even, independent of the FP environment.
inline double round_half_even(double x) {
  double f = std::floor(x);
  const double frac = x - f;
  if (frac > 0.5 || (frac == 0.5 && std::fmod(f, 2.0) != 0.0)) f += 1.0;
  return f;
}

// Round to nearest even, saturating: |x| beyond 448 (and +-inf) gives +-448; NaN gives 0x7f / 0xff.
inline uint8_t float_to_e4m3(float x) {
  const uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
  if (std::isnan(x)) return sign | kE4m3NaN;
  const double a = std::fabs(double(x));
  if (a >= 448.0) return sign | kE4m3Max;
  if (a < 0x1p-6) return sign | uint8_t(round_half_even(a * 512.0));  // subnormal; 8 rounds up to 2^-6
  int exp = 0;
  std::frexp(a, &exp);  // a = f * 2^exp, f in [0.5, 1): unbiased exponent exp - 1, in [-6, 8]
  const int q = int(round_half_even(std::ldexp(a, 3 - (exp - 1))));  // 8..16 eighths; 16 carries
  const int code = ((exp - 1 + 7) << 3) + q - 8;
  return sign | uint8_t(code > kE4m3Max ? kE4m3Max : code);
}

}  // namespace bf8test
