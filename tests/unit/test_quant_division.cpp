// Host check of the quantiser's division (div_by_scale in src/kernels/quantize_1x128.cu): the
// reciprocal-and-two-FMA-corrections formula, re-stated here op for op in host float arithmetic,
// against IEEE x / s. Host float is IEEE binary32 with round to nearest even on x86-64 (SSE) and
// aarch64, std::fmaf is a fused multiply-add, and this file is compiled with -ffp-contract=off
// (tests/CMakeLists.txt), so the emulation is exactly what the device computes.
//
// The contract checked is the kernel's, per element: wherever the e4m3 byte can be non-zero
// (|x / s| > 2^-11) the fp32 quotient is bit-identical to the division; below that only the byte
// (a signed zero) must match. Inputs: every bf16 significand against (a stride of, or with
// BLOCKFP8_EXHAUSTIVE=1 every) scale significand; quotients placed next to a rounding midpoint
// (the only place a near-miss shows); realistic groups (s = amax / 448, |x| <= amax, subnormals,
// signed zeros); infinities and NaN.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "fp8.h"
#include "random.h"

namespace {

using bf8test::bits_from_float;
using bf8test::float_from_bits;

// The device formula (keep in step with div_by_scale and its caller in quantize_1x128.cu).
float div_by_scale(float x, float s_fma, float y) {
  const float q0 = x * y;
  const float q1 = std::fmaf(std::fmaf(-q0, s_fma, x), y, q0);
  const float q2 = std::fmaf(std::fmaf(-q1, s_fma, x), y, q1);
  return std::copysign(q2, x);
}

// The kernel's per-group setup: y = RN(1 / s) (__frcp_rn), and s = +inf replaced by 0 in the FMAs.
float quotient(float x, float s) {
  const float y = 1.0f / s;
  return div_by_scale(x, s <= FLT_MAX ? s : 0.0f, y);
}

// The stored byte: clamp as the kernel and vLLM do, then e4m3 round to nearest even.
uint8_t byte_of(float q) { return bf8test::float_to_e4m3(std::fmin(std::fmax(q, -448.0f), 448.0f)); }

// Counts of the two kinds of disagreement, with the first example of each.
struct Tally {
  int64_t checked = 0, quotient_diffs = 0, byte_diffs = 0;
  std::string first;

  void check(float x, float s) {
    ++checked;
    const float want = x / s, got = quotient(x, s);
    if (bits_from_float(want) == bits_from_float(got) || (std::isnan(want) && std::isnan(got))) return;
    // A different fp32 quotient is allowed only where every candidate rounds to an e4m3 zero.
    const bool matters = std::fabs(want) > 0x1p-11f;
    const bool byte_ok = byte_of(got) == byte_of(want);
    quotient_diffs += matters;
    byte_diffs += !byte_ok;
    if ((matters || !byte_ok) && first.empty()) {
      std::ostringstream os;
      os << std::hexfloat << "x = " << x << ", s = " << s << ": x / s = " << want << ", formula " << got;
      first = os.str();
    }
  }
  void expect_clean() const {
    EXPECT_GT(checked, 0);
    EXPECT_EQ(quotient_diffs, 0) << "quotients above 2^-11 differing from x / s; first: " << first;
    EXPECT_EQ(byte_diffs, 0) << "e4m3 bytes differing; first: " << first;
  }
};

bool exhaustive() {
  const char* e = std::getenv("BLOCKFP8_EXHAUSTIVE");
  return e && *e && *e != '0';
}

// A power of two, exactly (ldexp of 1).
float pow2(int e) { return std::ldexp(1.0f, e); }

// The proof's core case, x and s significands in [1, 2) (quotients on both sides of 1), at a random
// common exponent shift and with the quotient also moved down (2^-10) and up (2^8). Every bf16
// significand against every 97th fp32 significand of s (all with BLOCKFP8_EXHAUSTIVE=1: 2^30
// pairs per shift and sign, about two minutes for the whole file).
TEST(QuantDivision, EveryBf16SignificandAgainstScaleSignificands) {
  const uint64_t seed = bf8test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const uint32_t stride = exhaustive() ? 1 : 97;
  Tally t;
  for (uint32_t sm = 0; sm < (1u << 23); sm += stride) {
    // Scales from the eps floor (~2^-42) to FLT_MAX / 448 (~2^119).
    const int es = -42 + int(bf8test::random_u64(seed, sm) % 161);
    const float s = std::ldexp(float_from_bits(0x3f800000u | sm), es);
    for (uint32_t xm = 0; xm < 128; ++xm) {
      const float x = float_from_bits(0x3f800000u | (xm << 16));  // a bf16 in [1, 2)
      for (int shift : {-10, 0, 8}) {
        const float xs = std::ldexp(x, es + shift);
        t.check(xs, s);
        t.check(-xs, s);
      }
    }
  }
  t.expect_clean();
}

// Quotients within a hair of a rounding midpoint m of fp32: x = RN(s m), so x / s is as close to m
// as the two formats allow; the case where an estimate one ulp off would round the wrong way. Scale
// significands uniform and crowded at both ends of [1, 2) (the proof's margin is thinnest near 2).
TEST(QuantDivision, QuotientsNextToRoundingMidpoints) {
  const uint64_t seed = bf8test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const int64_t n = exhaustive() ? 400000000 : 4000000;
  Tally t;
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t r = bf8test::random_u64(seed, uint64_t(i));
    uint32_t sm = uint32_t(r & 0x7fffff);
    if (i % 4 == 0) sm = 0x7fffffu - uint32_t((r >> 40) & 0xfff);  // s just below 2
    if (i % 4 == 1) sm = uint32_t((r >> 40) & 0xfff);               // s just above 1
    const float s = float_from_bits(0x3f800000u | sm);
    const float q = float_from_bits(((r >> 23) & 1 ? 0x3f000000u : 0x3f800000u) | uint32_t((r >> 24) & 0x7fffff));
    const double m = double(q) + 0.5 * (double(std::nextafter(q, 4.0f)) - double(q));  // exact
    const float x = float(double(s) * m);  // one rounding: |x / s - m| is at most half an ulp of x over s
    const int es = -40 + int((r >> 50) % 150), shift = int((r >> 58) % 16) - 9;  // quotients 2^-9 .. 2^7
    t.check(std::ldexp(x, es + shift), std::ldexp(s, es));
  }
  t.expect_clean();
}

// Groups as the kernel sees them: s = RN(amax / 448) with amax log-uniform over [1e-10, FLT_MAX]
// (and at both ends), x with |x| <= amax drawn as a fraction of amax, as random bits (any exponent
// down to subnormals: most of these quotients underflow) and as the amax itself.
TEST(QuantDivision, RealisticGroups) {
  const uint64_t seed = bf8test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const int64_t groups = exhaustive() ? 2000000 : 200000;
  Tally t;
  uint64_t ctr = 0;
  auto next = [&] { return bf8test::random_u64(seed, ctr++); };
  for (int64_t g = 0; g < groups; ++g) {
    float amax;
    if (g == 0) {
      amax = 1e-10f;
    } else if (g == 1) {
      amax = FLT_MAX;
    } else {
      amax = std::fmax(1e-10f, float(std::exp2(-33.2 + 161.1 * bf8test::random_unit(seed, ctr++))));
    }
    const float s = amax / 448.0f;
    t.check(amax, s);
    t.check(-amax, s);
    for (int i = 0; i < 16; ++i) {
      const uint64_t r = next();
      const float frac = float(double(r >> 11) * 0x1p-53);
      t.check((r & 1 ? -1.0f : 1.0f) * amax * frac, s);
      uint32_t b = uint32_t(r >> 32) & 0x7fffffffu;  // random bits, |x| <= amax
      const float any = float_from_bits(b);
      if (std::isfinite(any) && any <= amax) t.check(r & 2 ? -any : any, s);
      const float sub = float_from_bits(uint32_t(r >> 8) & 0x007fffffu);  // a subnormal (or zero)
      t.check(r & 4 ? -sub : sub, s);
    }
  }
  t.expect_clean();
}

// Signed zeros (the formula's FMAs alone would turn -0 into +0), NaN, groups holding an infinity
// (s = +inf: x / inf is a signed zero, inf / inf is NaN), the extreme scales, and e4m3 ties.
TEST(QuantDivision, SpecialValues) {
  const float inf = INFINITY, nan = NAN;
  const float scales[] = {1e-10f / 448.0f, 1.0f, 1.0f / 448.0f, pow2(-20), 3.0f, FLT_MAX / 448.0f, inf};
  const float xs[] = {0.0f, -0.0f, 1.0f, -1.0f, 1e-10f, -1e-10f, float_from_bits(1), -float_from_bits(1),
                      FLT_MIN, 65504.0f, -3.3895314e38f, FLT_MAX, -FLT_MAX, inf, -inf, nan, -nan};
  Tally t;
  for (float s : scales)
    for (float x : xs)  // only what a group can hold: |x| <= amax = 448 s (up to s's rounding), or NaN
      if (!(std::fabs(double(x)) > 448.0 * double(s) * (1.0 + 0x1p-20))) t.check(x, s);
  // e4m3 midpoints with s = 1 (amax = 448): exact ties must reach the cast unchanged.
  for (int code = 0; code < 0x7e; ++code) {
    const float mid = 0.5f * (bf8test::e4m3_to_float(uint8_t(code)) + bf8test::e4m3_to_float(uint8_t(code + 1)));
    t.check(mid, 1.0f);
    t.check(-mid, 1.0f);
  }
  t.expect_clean();
  // The sign of a zero quotient is the byte's sign (0x80 against 0x00): checked above through the
  // bit comparison; say it outright for the two cases the copysign is there for.
  EXPECT_TRUE(std::signbit(quotient(-0.0f, 1.0f)));
  EXPECT_TRUE(std::signbit(quotient(-1.0f, inf)));
  EXPECT_TRUE(std::isnan(quotient(inf, inf)));
}

// The quantiser's common path (quantize_1x128.cu, quant_math.cuh's kFinite) leaves out the clamp
// where a group holds no NaN and no inf: with amax finite, s = RN(amax / 448) (or, UE8M0, the power of
// two at or above it) gives |x / s| <= 448 (1 + 2^-23) for |x| <= amax, and the e4m3 cast's
// saturation alone gives the clamp's byte. Every positive finite bf16 amax from the eps floor up, with
// x = +-amax (the largest quotients), its neighbours below, and random fractions of it.
TEST(QuantDivision, ClampIsRedundantForFiniteGroups) {
  const uint64_t seed = bf8test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  int64_t checked = 0, diffs = 0;
  std::string first;
  auto check = [&](float x, float s) {
    ++checked;
    const float q = quotient(x, s);
    const uint8_t clamped = byte_of(q), unclamped = bf8test::float_to_e4m3(q);
    const bool bounded = std::fabs(double(q)) <= 448.0 * (1.0 + 0x1p-23);
    if (clamped == unclamped && bounded) return;
    if (diffs++ == 0) {
      std::ostringstream os;
      os << std::hexfloat << "x = " << x << ", s = " << s << ", q = " << q;
      first = os.str();
    }
  };
  for (uint32_t bits = 1; bits < 0x7f80u; ++bits) {  // positive finite bf16
    const float amax = std::fmax(1e-10f, float_from_bits(bits << 16));
    const float s_fp32 = amax / 448.0f;
    uint32_t ue = bits_from_float(std::fmax(s_fp32, 1e-10f));  // group_scale's UE8M0 rounding
    if (ue & 0x007fffffu) ue = (ue & 0x7f800000u) + 0x00800000u;
    const float s_ue8m0 = float_from_bits(ue);
    for (float s : {s_fp32, s_ue8m0}) {
      for (float x : {amax, std::nextafter(amax, 0.0f), float_from_bits(bits_from_float(amax) - 0x10000u)}) {
        check(x, s);
        check(-x, s);
      }
      for (int i = 0; i < 4; ++i) {
        const uint64_t r = bf8test::random_u64(seed, uint64_t(bits) * 8 + uint64_t(i) + (s == s_ue8m0 ? 4 : 0));
        const float x = amax * float(double(r >> 11) * 0x1p-53);
        check(r & 1 ? -x : x, s);
      }
    }
  }
  EXPECT_GT(checked, 0);
  EXPECT_EQ(diffs, 0) << "of " << checked << " quotients, the clamp changed the byte or |q| > 448 (1 + 2^-23); first: " << first;
}

}  // namespace
