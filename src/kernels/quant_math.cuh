// The 1x128 quantisation formula on the device, shared by the standalone quantiser
// (quantize_1x128.cu) and the decode kernels' fused A sides (swapab_splitk.cu, swapab_warpmma.cu), so
// they produce the same bytes and scales. The formula and its vLLM equivalence are documented in
// quantize_1x128.cu.
#pragma once

#include <cuda_bf16.h>

#include <cfloat>
#include <cstdint>

namespace blockfp8::detail {

constexpr float kFp8Max = 448.0f;
constexpr float kEps = 1e-10f;         // vLLM's eps (a Python float, passed to the kernel as fp32)
constexpr float kUe8m0Floor = 1e-10f;  // vLLM's fmaxf(|s|, 1e-10f) before rounding a UE8M0 scale up

// Two floats to two e4m3 bytes, round to nearest even, saturating: `lo` in the low byte.
__device__ __forceinline__ uint32_t e4m3x2(float lo, float hi) {
  uint16_t r;
  asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(r) : "f"(hi), "f"(lo));
  return r;
}

// x / s, correctly rounded (round to nearest even), for a group scale s = amax / 448 of an fp32 amax
// in [1e-10, FLT_MAX] (so s is normal, in [2.2e-13, 7.6e35], or +inf when the group holds an inf),
// given y = __frcp_rn(s) (the correctly rounded reciprocal: normal, below 2^43) and s_fma = s, or 0
// when s = +inf. Five FP32 ops, no branch, no MUFU: the same shape as the fast path of nvcc's own
// division (a quotient estimate, then two residual corrections), minus its FCHK guard and slow path.
//
// Why it equals RN(x / s) wherever the e4m3 byte depends on it. Let t = x / s.
//  (1) |t| > 2^-11: only here can the byte be non-zero (e4m3's smallest subnormal is 2^-9, and RNE
//      sends |v| <= 2^-10 to zero). Then |x| > 2^-11 s >= 2^-54: x, s, y and every intermediate are
//      normal and each residual's exact value lies on a grid (ulp(s) ulp(q) >= 2^-101) far above the
//      subnormals, so the argument scales to a, b in [1, 2) with t = a / b, b > 1 (b = 1 is exact), ulp
//      = ulp(t). eps := b y - 1 satisfies |eps| <= b 2^-25 < 2^-24 (y within half an ulp of 1 / b).
//      Identity: q + (a - b q) y = t + (t - q) eps for any q.
//      q0 = RN(a y) is within 1 ulp of t (t >= 1) or 1.5 ulp (t < 1), so |a - b q0| < 2^-22 and, whether
//      r1 = RN(a - b q0) is exact or not, q0 + r1 y = t + d1 with |d1| < 2^-46: q1 = RN(t + d1) is
//      within half an ulp + 2^-46 < 1 ulp of t.
//      r2 = a - b q1 is then exact (at most 24 bits on the 2^-46 or 2^-47 grid of b q1), so
//      q1 + r2 y = t + d2 with d2 = (t - q1) eps. q2 = RN(t + d2) differs from RN(t) only if a rounding
//      midpoint m lies between t and t + d2. If one did, q1 (within ~1 ulp of m) would be m +- ulp / 2,
//      so |d2| <= (ulp / 2 + |d2|) |eps|, i.e. |d2| <= ulp b 2^-26 (1 + 2^-23). But a / b is never a
//      midpoint, and a - b m is a non-zero multiple of 2^-47 (t in [1, 2), ulp 2^-23) or 2^-48 (t in
//      (1/2, 1), ulp 2^-24), so |t - m| >= ulp 2^-24 / b; b^2 (1 + 2^-23) < 4 contradicts it. So
//      q2 = RN(t). (Host check: exhaustive over bf16 significands, and midpoint-adversarial pairs.)
//  (2) |t| <= 2^-11: every op is within a relative 2^-23 and an absolute 2^-150 (subnormal rounding)
//      of exact, and y < 2^43, so |q2| <= |t| (1 + 2^-22) + 2^-106 < 2^-10: the byte is a zero either
//      way, and its sign is x's in both (x / s keeps x's sign, copysignf restores it here; without it
//      x = -0 would come out +0, since fma(+0, y, -0) = +0).
//  (3) s = +inf (an inf in the group): x / inf is +-0 for finite x and NaN for +-inf. With y = 0 and
//      s_fma = 0, q0 = x * 0 is exactly that, r = fma(-q0, 0, x) = x and q1 = fma(x, 0, q0) = q0 up to
//      the sign of zero (restored), NaN stays NaN. A NaN x gives NaN, as the division does.
// Clamping (fminf/fmaxf) and the e4m3 cast then see the same number as after vLLM's division.
__device__ __forceinline__ float div_by_scale(float x, float s_fma, float y) {
  const float q0 = __fmul_rn(x, y);  // __fmul_rn: never contracted into a neighbouring FMA
  const float q1 = fmaf(fmaf(-q0, s_fma, x), y, q0);
  const float q2 = fmaf(fmaf(-q1, s_fma, x), y, q1);
  return copysignf(q2, x);
}

// max.NaN: NaN if either operand is (fmaxf returns the other).
__device__ __forceinline__ float max_nan(float a, float b) {
  float r;
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}

// The amax of a group of 128 spread over a half-warp, 8 elements a lane (lane l of the half holds
// elements 8 l .. 8 l + 7): eps-clamped, reduced with xor offsets < 16, which stay inside the half.
// Every lane of the warp must execute it (full-warp shuffle mask); max is exact, so any order gives
// the same bits. kNanPropagates: by max.NaN, so NaN where the group holds one and otherwise equal to
// the fmaxf amax (which ignores NaN, as vLLM's does); an inf in the group gives inf either way.
template <bool kNanPropagates = false>
__device__ __forceinline__ float half_warp_group_amax(const float (&f)[8]) {
  auto max2 = [](float a, float b) { return kNanPropagates ? max_nan(a, b) : fmaxf(a, b); };
  float amax = kEps;
#pragma unroll
  for (int e = 0; e < 8; ++e) amax = max2(amax, fabsf(f[e]));
#pragma unroll
  for (int off = 8; off >= 1; off >>= 1) amax = max2(amax, __shfl_xor_sync(0xffffffffu, amax, off));
  return amax;
}

// The group's scale from its amax (eps-clamped): one IEEE division per group, not per element (the
// scale itself must be exactly vLLM's); UE8M0 rounds it up to a power of two.
__device__ __forceinline__ float group_scale(float amax, bool ue8m0) {
  float s = __fdiv_rn(amax, kFp8Max);
  if (ue8m0) {
    uint32_t bits = __float_as_uint(fmaxf(s, kUe8m0Floor));
    if (bits & 0x007fffffu) bits = (bits & 0x7f800000u) + 0x00800000u;
    s = __uint_as_float(bits);
  }
  return s;
}

// N elements of one group (N % 4 == 0) divided by its scale s, clamped and cast: N / 4 words of
// e4m3 bytes, element i in byte i % 4 of word i / 4. kFinite: the caller knows the group holds no NaN
// and no inf (its amax is finite), so every quotient is finite with |q| <= 448 (1 + 2^-23), and the
// cast's saturation gives what the clamp would: the clamp only decides a NaN's byte (-448, where the
// cast alone would give NaN), and it is left out.
template <bool kUe8m0, int N, bool kFinite = false>
__device__ __forceinline__ void quantize_by_scale(const float (&f)[N], float s, uint32_t (&packed)[N / 4]) {
  // UE8M0: exact (s is a power of two in [2^-33, 2^120], or inf: 0). FP32: correctly rounded,
  // normal, and 0 for s = inf; div_by_scale's premise.
  const float inv = __frcp_rn(s);
  const float s_fma = s <= FLT_MAX ? s : 0.0f;  // div_by_scale's case (3)
#pragma unroll
  for (int i = 0; i < N / 4; ++i) packed[i] = 0;
#pragma unroll
  for (int i = 0; i < N; i += 2) {
    float q0, q1;
    if constexpr (kUe8m0) {
      q0 = f[i] * inv, q1 = f[i + 1] * inv;
    } else {
      q0 = div_by_scale(f[i], s_fma, inv), q1 = div_by_scale(f[i + 1], s_fma, inv);
    }
    if constexpr (!kFinite) {
      q0 = fminf(fmaxf(q0, -kFp8Max), kFp8Max);
      q1 = fminf(fmaxf(q1, -kFp8Max), kFp8Max);
    }
    packed[i / 4] |= e4m3x2(q0, q1) << (8 * (i % 4));
  }
}

// The fused kernels' step: one group of 128 bf16 values held by a half-warp (lane `sub` of the half
// holds elements 8 sub .. 8 sub + 7, one 16-byte load in `raw`) to this lane's 8 e4m3 bytes; returns
// the group's scale. Every lane of the warp must call it (the amax shuffles span the half-warp); a
// half-warp whose group does not exist passes zeros and drops the result.
__device__ __forceinline__ float quantize_bf16_group(const uint4& raw, bool ue8m0, uint32_t (&packed)[2]) {
  const __nv_bfloat16* h = reinterpret_cast<const __nv_bfloat16*>(&raw);
  float f[8];
#pragma unroll
  for (int e = 0; e < 8; ++e) f[e] = __bfloat162float(h[e]);
  const float s = group_scale(half_warp_group_amax(f), ue8m0);
  if (ue8m0)
    quantize_by_scale<true>(f, s, packed);
  else
    quantize_by_scale<false>(f, s, packed);
  return s;
}

}  // namespace blockfp8::detail
