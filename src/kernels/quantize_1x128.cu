// The activation quantiser: X [M][K] (bf16 / fp16 / fp32) -> X_q e4m3 + one fp32 scale per 1x128
// group, the A side of blockfp8_gemm. The formula is in blockfp8.h. Per element it reads 2-4 bytes,
// writes 1 and issues about ten instructions; at M = 4096 the issue slots bind before HBM does (ncu at
// 1.47 GHz: 76 % of them busy, DRAM 45 %; its time scales with the SM clock; s27 call 14).
//
// Work decomposition
//   A half-warp (16 lanes) owns one group of 128 elements: lane `sub` holds elements
//   [8 sub, 8 sub + 8), one 16-byte load for 16-bit inputs (two for fp32) and one 8-byte store of
//   e4m3. The two half-warps of a warp take adjacent groups, so every warp-wide load instruction
//   reads 512 (fp32: 2 x 512) contiguous bytes and every store writes 256 contiguous bytes.
//   A warp's work item is 2U consecutive groups of one row (U = 4 at K = 7168: 7 items per row),
//   all U loads issued before any arithmetic so each thread keeps 64-128 bytes in flight.
//   The group's amax is reduced with 4 xor-shuffles inside the half-warp (full-warp mask: every lane
//   of the warp executes them, out-of-range groups on zeros, so there is no divergence around them).
//   The grid holds one CTA per 8 work items (M = 4096, K = 7168: 3584 CTAs of 256 threads), so the
//   block scheduler balances the tail; a grid-stride loop covers problems beyond the grid cap.
//   Where that grid is a few CTAs (at most kSmallGridItems items: M <= 9 at K = 7168), CTAs of 4 warps
//   instead, on twice the SMs: 0.93-0.97x the time alone at M = 1-4, and the two-launch bf16 GEMM path
//   0.97-0.99x at M = 2-8 (s27 call 10). 4-warp CTAs everywhere ran the quantiser alone at 0.95-0.99x up
//   to M = 4096 but made that path 1.02-1.07x slower at M = 16-32 (28-56 CTAs beside the GEMM's
//   clusters, which start under PDL), so larger grids keep 8.
//   What was tried and lost (s27, docs/session-notes-2026-12-01-27.md): warps walking several items
//   with the next one's loads in flight (1.12-1.19x), 40 registers a thread for more resident warps
//   (1.01-1.10x), X loaded with ld.global.cs (1.00-1.09x), and a staged form streaming each warp's
//   items into shared memory by bulk copies (1.12-1.24x). Without the arithmetic the same access
//   pattern moves 3.67 TB/s (bench/probes/rw_mix.cu); the FP32-scale quantiser took 1.13x that time
//   and UE8M0 1.03x before the clamp left the common case (below).
//
// Bit-exactness with vLLM's per_token_group_quant_fp8 (group_size 128, eps 1e-10, fp8 max 448)
//   - amax starts at eps and is fmaxf-reduced over |x| (max is exact and order-independent).
//   - s = amax / 448.0f with IEEE division (__fdiv_rn; never a reciprocal estimate).
//   - UE8M0: s = max(s, 1e-10f) rounded up to a power of two by bumping the exponent when the mantissa
//     is non-zero: exactly what vLLM's CUDA register kernel does (bf16 / fp16 inputs) and the exact
//     value of 2^ceil(log2 s). (vLLM's log2f/exp2f formulation in its other paths can round down when
//     s is a few ulps above a power of two; the exact form is the one it documents as equivalent.)
//   - Quantised value: the correctly rounded x / s (vLLM divides; x * (1/s) alone differs by an ulp on
//     some inputs). In UE8M0 mode s is a power of two, so x * (1/s) is that number and one multiply
//     does it. In fp32 mode div_by_scale() gets it from the group's reciprocal with two FMA
//     corrections (proof there), not with __fdiv_rn per element. The IEEE division is a reciprocal
//     (MUFU), eight FMAs and an FCHK test that sends the operands its fast path cannot vouch for
//     (quotients that may underflow, |x| < 2^-126 s, and subnormal dividends) to a called slow path.
//     The benchmark's X (random bit patterns: a wide exponent spread in every group) puts about half
//     the elements, so nearly every warp, on that path: the likely reason the fp32 path ran at 809
//     GB/s against the UE8M0 path's 3546 GB/s (H200, M = 4096, K = 7168, bf16), the two paths being
//     otherwise the same code. Host-checked in tests/unit/test_quant_division.cpp.
//   - Clamp fminf(fmaxf(q, -448), 448), then cvt.rn.satfinite.e4m3x2.f32: round to nearest even.
//     Where the warp's groups hold no NaN and no inf (the common case, one warp vote), the clamp is
//     left out: every quotient is then finite and the cast's saturation gives the clamp's byte; the
//     clamp decides only a NaN's byte (-448, where the cast would give NaN).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cfloat>
#include <cstdint>

#include "kernels/host_support.h"
#include "kernels/launch.h"
#include "kernels/ptx.cuh"
#include "kernels/quant_math.cuh"
#include "kernels/timeline.cuh"

namespace blockfp8::detail {
namespace {

#ifdef BLOCKFP8_TIMELINE
__device__ TimelineRows g_timeline;  // kernels/timeline.cuh; read by read_quantize_timeline
#endif

constexpr int kThreads = 256;
constexpr int kSmallGridItems = 64;  // at most this many items: CTAs of kSmallGridWarps warps
constexpr int kSmallGridWarps = 4;
// At most this many items (M <= 146 at K = 7168: one wave of CTAs): one NaN/inf vote an item, not a
// group (kItemVote, in the kernel).
constexpr int64_t kItemVoteMaxItems = 1024;
constexpr int kGroup = 128;
constexpr int kPerLane = 8;  // elements of a group per lane: 16 lanes x 8 = 128
constexpr int64_t kMaxGrid = int64_t{1} << 24;
constexpr int kMaxThreadsPerSm = 2048;  // sm_90: what bounds this kernel's CTAs an SM (no shared memory)

struct Params {
  const void* x;
  int64_t ldx;
  uint8_t* x_q;
  int64_t ldq;
  float* scales;
  int64_t ss_m, ss_k;
  int64_t items;           // rows * chunks_per_row
  int64_t chunks_per_row;  // ceil(k_blocks / (2U))
  int32_t k_blocks;
};

__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(float v) { return v; }

// 8 consecutive elements of a group: vectorised (16-byte loads; needs 16-byte aligned addresses) or
// element by element. Read-only non-coherent path; X is read exactly once.
template <class T, bool kVec>
__device__ __forceinline__ void load8(const T* src, T (&v)[kPerLane]) {
  if constexpr (kVec) {
    constexpr int kVecs = kPerLane * int(sizeof(T)) / 16;
#pragma unroll
    for (int i = 0; i < kVecs; ++i) reinterpret_cast<uint4*>(v)[i] = __ldg(reinterpret_cast<const uint4*>(src) + i);
  } else {
#pragma unroll
    for (int i = 0; i < kPerLane; ++i) v[i] = src[i];
  }
}

// kWarps: 8 (kThreads), or 4 on a small grid (kSmallGridItems), as compile-time constants: with the
// count read from blockDim the 8-warp form measured 1.01-1.015x slower at M = 32-128 (s27 call 11).
template <class T, int U, bool kVec, bool kUe8m0, int kWarps, bool kItemVote>
__global__ void __launch_bounds__(kWarps * 32) quantize_1x128_kernel(const Params p) {
  // A GEMM launched after this kernel with programmatic dependent launch may start its prologue now;
  // it waits (griddepcontrol.wait) for this grid to finish before it reads X_q or the scales. Launched
  // with PDL itself (blockfp8_gemm_bf16a, bf16a_quantizer_pdl), this kernel's CTAs may be resident
  // before the preceding kernel has finished, so every thread waits for it before touching X (which it
  // may write) or X_q and the scales (which it may still read: the previous call's GEMM reads the same
  // workspace). Launched plainly, the wait returns at once.
  BLOCKFP8_MARK(0, threadIdx.x == 0);  // entry
  ptx::launch_dependents();
  ptx::grid_dependency_wait();
  BLOCKFP8_MARK(1, threadIdx.x == 0);  // the preceding grid is done
  const int lane = threadIdx.x & 31;
  const int half = lane >> 4;  // which of the warp's two groups
  const int sub = lane & 15;   // elements [8 sub, 8 sub + 8) of that group
  const int64_t warp_stride = int64_t(gridDim.x) * kWarps;

  for (int64_t item = int64_t(blockIdx.x) * kWarps + (threadIdx.x >> 5); item < p.items; item += warp_stride) {
    const int64_t row = item / p.chunks_per_row;
    const int first = int(item - row * p.chunks_per_row) * (2 * U);
    const T* xrow = static_cast<const T*>(p.x) + row * p.ldx + sub * kPerLane;

    // All loads first.
    alignas(16) T v[U][kPerLane];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int kb = first + 2 * u + half;
      if (kb < p.k_blocks) {
        load8<T, kVec>(xrow + int64_t(kb) * kGroup, v[u]);
      } else {
#pragma unroll
        for (int i = 0; i < kPerLane; ++i) v[u][i] = T(0.0f);
      }
    }

    // Thread 0's first item's X has landed.
    BLOCKFP8_MARK_AFTER(2, threadIdx.x == 0 && item == blockIdx.x * kWarps, __float_as_uint(to_float(v[0][0])));

    // Where this lane's first group goes in X_q and in the scales, once; group u is 2u groups on.
    // Computed in store() from the row, ptxas redid the 64-bit row products for every group (about a
    // dozen of a group's ~110 instructions). Hoisted: 0.978-0.990x with FP32 scales at M = 1-4096,
    // 0.992-0.994x with UE8M0 (s28 call 1, interleaved three times; M = 4096 25.86 against 26.44 us).
    uint8_t* const q_first = p.x_q + row * p.ldq + int64_t(first + half) * kGroup + sub * kPerLane;
    float* const s_first = p.scales + row * p.ss_m + int64_t(first + half) * p.ss_k;
    const int64_t s_step = 2 * p.ss_k;
    auto store = [&](int u, float s, const uint32_t (&packed)[kPerLane / 4]) {
      uint8_t* dst = q_first + 2 * u * kGroup;
      if constexpr (kVec) {
        *reinterpret_cast<uint2*>(dst) = make_uint2(packed[0], packed[1]);
      } else {
#pragma unroll
        for (int i = 0; i < kPerLane; ++i) dst[i] = uint8_t(packed[i / 4] >> (8 * (i % 4)));
      }
      if (sub == 0) s_first[u * s_step] = s;
    };
    // Group u's elements as floats (this lane's eight).
    auto floats = [&](int u, float (&f)[kPerLane]) {
#pragma unroll
      for (int i = 0; i < kPerLane; ++i) f[i] = to_float(v[u][i]);
    };
    // Group u the exact way: amax ignoring NaN (vLLM's fmaxf), quotients clamped. Every lane of the
    // warp comes here (the amax shuffles span the half-warp, under a full-warp mask).
    auto exact = [&](int u) {
      const int kb = first + 2 * u + half;
      float f[kPerLane];
      floats(u, f);
      const float amax = half_warp_group_amax(f);
      if (kb >= p.k_blocks) return;  // uniform across the half-warp, after the shuffles
      const float s = group_scale(amax, kUe8m0);
      uint32_t packed[kPerLane / 4];
      quantize_by_scale<kUe8m0>(f, s, packed);
      store(u, s, packed);
    };
    // Group u where no NaN or inf is in it: its amax from max.NaN (equal there), no clamp (the cast's
    // saturation does it: quantize_by_scale's kFinite).
    auto finite = [&](int u, float amax) {
      const int kb = first + 2 * u + half;
      if (kb >= p.k_blocks) return;
      float f[kPerLane];
      floats(u, f);
      const float s = group_scale(amax, kUe8m0);
      uint32_t packed[kPerLane / 4];
      quantize_by_scale<kUe8m0, kPerLane, true>(f, s, packed);
      store(u, s, packed);
    };
    // The quantiser is issue-bound (ncu at 1.47 GHz: 76 % of issue slots busy, DRAM 45 %; s27 call 14),
    // so the clamp's two instructions an element count, and the common case (no NaN or inf in the
    // warp's groups, one warp vote) leaves them out. kItemVote: one vote for the item's 2U groups, after
    // every amax, so the groups' instruction streams interleave (small, latency-bound grids: 0.93-0.96x
    // at M = 1-128, s27 call 16, but 64 registers a thread, 1.03x at M = 4096); else one vote a group
    // (47 registers: 0.96x at M = 4096 with FP32 scales, but 1.03-1.05x at M = 1-128, call 15).
    auto amax_of = [&](int u) {
      float f[kPerLane];
      floats(u, f);
      return half_warp_group_amax<true>(f);
    };
    if constexpr (kItemVote) {
      float amax[U];
      bool ok = true;
#pragma unroll
      for (int u = 0; u < U; ++u) ok = (amax[u] = amax_of(u)) <= FLT_MAX && ok;  // false for NaN and inf
      if (__all_sync(0xffffffffu, ok)) {
#pragma unroll
        for (int u = 0; u < U; ++u) finite(u, amax[u]);
      } else {
#pragma unroll
        for (int u = 0; u < U; ++u) exact(u);
      }
    } else {
      // Written out rather than through finite() and exact(): with them ptxas took 50 registers, and
      // four 8-warp CTAs an SM instead of five.
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const int kb = first + 2 * u + half;
        float f[kPerLane];
        floats(u, f);
        float amax = half_warp_group_amax<true>(f);
        uint32_t packed[kPerLane / 4];
        float s;
        if (__all_sync(0xffffffffu, amax <= FLT_MAX)) {
          if (kb >= p.k_blocks) continue;
          s = group_scale(amax, kUe8m0);
          quantize_by_scale<kUe8m0, kPerLane, true>(f, s, packed);
        } else {
          amax = half_warp_group_amax(f);
          if (kb >= p.k_blocks) continue;
          s = group_scale(amax, kUe8m0);
          quantize_by_scale<kUe8m0>(f, s, packed);
        }
        store(u, s, packed);
      }
    }
  }
  BLOCKFP8_MARK(3, threadIdx.x == 0);  // thread 0's last stores issued
}

// Groups per warp item: 2U. Prefer a U that divides the row's groups evenly, else the largest that
// the row can fill.
int choose_u(int64_t k_blocks) {
  for (int u : {4, 2, 1})
    if (k_blocks % (2 * u) == 0) return u;
  return k_blocks >= 8 ? 4 : (k_blocks >= 4 ? 2 : 1);
}

// How a launch goes out: with PDL or not, spread over a device's SMs or not (launch_quantize_1x128).
struct QuantLaunch {
  bool pdl;
  const DeviceInfo* spread_over;
  cudaStream_t stream;
};

template <class T, int U, bool kVec, int kWarps, bool kItemVote>
cudaError_t launch_warps(const Params& prm, bool ue8m0, const QuantLaunch& l) {
  const unsigned grid = unsigned(std::min((prm.items + kWarps - 1) / kWarps, kMaxGrid));
  const auto kernel = ue8m0 ? quantize_1x128_kernel<T, U, kVec, true, kWarps, kItemVote>
                            : quantize_1x128_kernel<T, U, kVec, false, kWarps, kItemVote>;
  // The shared memory asked for only bounds the CTAs an SM takes; the kernel uses none.
  int smem = 0;
  if (l.spread_over) {
    const int per_sm = bf16a_quantizer_ctas_per_sm(grid, kMaxThreadsPerSm / (kWarps * 32), l.spread_over->sm_count);
    if (per_sm > 0) smem = std::min(smem_for_ctas_per_sm(per_sm, *l.spread_over), l.spread_over->smem_per_block_optin);
  }
  if (smem > 0) {
    static std::atomic<int> raised[2][kMaxDevices];
    const cudaError_t e = raise_smem_limit(kernel, raised[ue8m0], smem);
    if (e != cudaSuccess) return e;
  }
  cudaLaunchAttribute attr[2];
  const cudaLaunchConfig_t lc =
      launch_config(attr, 1, dim3(grid), kWarps * 32, smem, l.stream, /*cluster_attr=*/false, l.pdl);
  return cudaLaunchKernelEx(&lc, kernel, prm);
}

template <class T, int U, bool kVec>
cudaError_t launch_typed(const Params& prm, bool ue8m0, const QuantLaunch& l) {
  if (prm.items <= kSmallGridItems) return launch_warps<T, U, kVec, kSmallGridWarps, true>(prm, ue8m0, l);
  if (prm.items <= kItemVoteMaxItems) return launch_warps<T, U, kVec, kThreads / 32, true>(prm, ue8m0, l);
  return launch_warps<T, U, kVec, kThreads / 32, false>(prm, ue8m0, l);
}

template <class T, bool kVec>
cudaError_t launch_u(Params prm, int u, bool ue8m0, const QuantLaunch& l) {
  switch (u) {
    case 4:
      return launch_typed<T, 4, kVec>(prm, ue8m0, l);
    case 2:
      return launch_typed<T, 2, kVec>(prm, ue8m0, l);
    default:
      return launch_typed<T, 1, kVec>(prm, ue8m0, l);
  }
}

template <class T>
cudaError_t launch_t(const Params& prm, int u, bool vec, bool ue8m0, const QuantLaunch& l) {
  return vec ? launch_u<T, true>(prm, u, ue8m0, l) : launch_u<T, false>(prm, u, ue8m0, l);
}

}  // namespace

blockfp8_status_t launch_quantize_1x128(const QuantizeProblem& q, cudaStream_t stream, bool pdl,
                                        const DeviceInfo* spread_over) {
  if (q.m == 0) return BLOCKFP8_SUCCESS;
  const int64_t elem = dtype_size(q.x_dtype);
  const int u = choose_u(q.k_blocks());
  const int64_t chunks = (q.k_blocks() + 2 * u - 1) / (2 * u);
  const Params prm{
      q.x,          q.ldx,  static_cast<uint8_t*>(q.x_q), q.ldq, q.scales, q.scale_stride_m, q.scale_stride_k,
      q.m * chunks, chunks, int32_t(q.k_blocks())};
  // Vector path: 16-byte loads of X and 8-byte stores of X_q at every group's lane offset.
  const auto addr = [](const void* ptr) { return reinterpret_cast<uintptr_t>(ptr); };
  const bool vec = addr(q.x) % 16 == 0 && (q.ldx * elem) % 16 == 0 && addr(q.x_q) % 8 == 0 && q.ldq % 8 == 0;
  const bool ue8m0 = q.fmt == BLOCKFP8_SCALE_UE8M0;
  const QuantLaunch l{pdl, spread_over, stream};
  cudaError_t e;
  switch (q.x_dtype) {
    case BLOCKFP8_DTYPE_BF16:
      e = launch_t<__nv_bfloat16>(prm, u, vec, ue8m0, l);
      break;
    case BLOCKFP8_DTYPE_FP16:
      e = launch_t<__half>(prm, u, vec, ue8m0, l);
      break;
    default:
      e = launch_t<float>(prm, u, vec, ue8m0, l);
      break;
  }
  return e == cudaSuccess ? BLOCKFP8_SUCCESS : BLOCKFP8_ERROR_CUDA;
}

#ifdef BLOCKFP8_TIMELINE
int read_quantize_timeline(unsigned long long* host, int ctas) { return copy_timeline(g_timeline, host, ctas); }
#endif

}  // namespace blockfp8::detail
