// Probe: the TMA decode kernel's math loop alone, at the pace its math warpgroups can keep when every
// stage is already in shared memory. One CTA per SM on every SM, one or two math warpgroups, each
// with its own resident weight tile (64 x 128 B) and token tile (TN x 128 B, 128-byte swizzle) and a
// 64-k-block scale table laid out as the kernel's (TN a_scales, then b_scale, TN + 4 floats a k-block).
// A k-block is four m64nTNk32 e4m3 wgmmas, as in src/kernels/swapab_splitk.cu. Modes:
//   mma      the wgmmas, waited for after each k-block (one FADD keeps them alive)
//   promote  the promotion alone (per token pair two scale loads and products, four FFMAs), no wgmma
//   kernel   the kernel's order at one-k-block stages: release_early's wait_group 0 (the previous
//            k-block's wgmmas done, its stage handed back), k-block i + 1 issued into the other
//            accumulator set, wait_group 1, k-block i promoted. (Without the wait_group 0, ptxas
//            serialised every wgmma here, C7514: that order is not measured.)
//   wide     kernel, with the a_scales laid out thread by thread (the TN / 4 a thread promotes
//            contiguous: quad lane c's tokens 8j + 2c + {0, 1} at c * TN / 4 + 2j + {0, 1}), so a thread
//            reads them with TN / 16 16-byte loads instead of TN / 4 4-byte ones
//   ahead    kernel, with each k-block's scales loaded into registers one k-block early (right after
//            the wgmmas of the k-block they serve are issued, a turn before its promotion)
//   before   kernel, with the k-block's scales loaded into registers just before the next k-block's
//            wgmmas are issued (live across the issue only, not a whole turn)
//   regs     kernel, with no scale loads at all (one scale a k-block, from a register): the bound on
//            what any scale layout can gain
//   tokens_a kernel, with the operands' roles swapped back: the token tile is wgmma's A (64 rows: the
//            tokens on its M side; a 32-token tile reads 32 rows past itself, never promoted) and the
//            weight tile its B (m64n64k32). A thread's accumulator rows are then two tokens, so a
//            k-block's promotion loads two a_scales and the b_scale instead of TN / 4 + 1
// With two warpgroups both run the loop at once, as the alternating warpgroups would if their stages
// were always there: does the second warpgroup double the math rate, or share a pipe with the first?
// Prints, per token tile, mode and warpgroup count, the median over CTAs of cycles a k-block a
// warpgroup (the slower warpgroup of the CTA) and the CTA's cycles a k-block (that / warpgroups).
// The kernel's stream needs one k-block a CTA every ~290 ns at 64 tokens on 7168x16384
// (s22 call 2): ~500-580 cycles at the clocks it runs.
//   Usage: decode_loop [k-blocks per warpgroup, default 4096]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "kernels/ptx.cuh"

namespace ptx = blockfp8::ptx;

namespace {

enum Mode { kMma, kPromote, kKernel, kWide, kRegs, kAhead, kBefore, kTokensA };
constexpr const char* kModeNames[] = {"mma", "promote", "kernel", "wide", "regs", "ahead", "before", "tokens_a"};
constexpr int kRowBytes = 128, kWeightRows = 64, kScaleKblocks = 64;
constexpr int kSmemBytes = 200 * 1024;  // one CTA an SM

template <int TN>
constexpr int kPitch = TN + 4;

// A warpgroup's resident operands: its weight and token tiles, then the shared scale table.
template <int TN>
__host__ __device__ constexpr int wg_bytes() { return (kWeightRows + TN) * kRowBytes; }

template <int TN>
struct Operands {
  uint64_t desc_w, desc_t;
  const float* scales;
};

template <int TN, int W>
__device__ __forceinline__ Operands<TN> load_operands(uint8_t* raw, const uint8_t* src, const float* scale_src) {
  uint8_t* smem = ptx::align_smem_1024(raw);
  float* scales = reinterpret_cast<float*>(smem + W * wg_bytes<TN>());
  for (int i = threadIdx.x * 16; i < W * wg_bytes<TN>(); i += blockDim.x * 16)
    *reinterpret_cast<uint4*>(smem + i) = *reinterpret_cast<const uint4*>(src + i);
  for (int i = threadIdx.x; i < kScaleKblocks * kPitch<TN>; i += blockDim.x) scales[i] = scale_src[i];
  ptx::fence_proxy_async_shared();  // generic-proxy writes, before wgmma reads them
  __syncthreads();
  const uint8_t* mine = smem + threadIdx.x / 128 * wg_bytes<TN>();
  return {ptx::wgmma_desc_k128_sw128(mine), ptx::wgmma_desc_k128_sw128(mine + kWeightRows * kRowBytes), scales};
}

template <int TN>
__device__ __forceinline__ void issue(float (&part)[TN / 2], const Operands<TN>& o) {
  ptx::fence_regs(part);
  ptx::wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < 4; ++kk)
    ptx::WgmmaE4M3<TN>::mma(part, ptx::desc_advance(o.desc_w, kk * 32), ptx::desc_advance(o.desc_t, kk * 32), kk > 0);
  ptx::wgmma_commit();
  ptx::fence_regs(part);
}

// The kernel's promotion (ConsumerLoop::promote, aligned tiles): acc += part * a_scale * b_scale.
template <int TN>
__device__ __forceinline__ void promote(float (&acc)[TN / 2], float (&part)[TN / 2], const float* scales, int kb) {
  ptx::fence_regs(part);
  const int lane = threadIdx.x % 32;
  const float* sc = scales + (kb % kScaleKblocks) * kPitch<TN>;
  const float sb = sc[TN];
#pragma unroll
  for (int j = 0; j < TN / 8; ++j) {
    const float s0 = sc[8 * j + 2 * (lane % 4)] * sb;
    const float s1 = sc[8 * j + 2 * (lane % 4) + 1] * sb;
    acc[4 * j + 0] = fmaf(part[4 * j + 0], s0, acc[4 * j + 0]);
    acc[4 * j + 1] = fmaf(part[4 * j + 1], s1, acc[4 * j + 1]);
    acc[4 * j + 2] = fmaf(part[4 * j + 2], s0, acc[4 * j + 2]);
    acc[4 * j + 3] = fmaf(part[4 * j + 3], s1, acc[4 * j + 3]);
  }
}

// The same products from the thread-by-thread layout (mode wide; 16 tokens and up).
template <int TN>
__device__ __forceinline__ void promote_wide(float (&acc)[TN / 2], float (&part)[TN / 2], const float* scales,
                                             int kb) {
  static_assert(TN >= 16, "16-byte loads of TN / 4 scales");
  ptx::fence_regs(part);
  const int lane = threadIdx.x % 32;
  const float* sc = scales + (kb % kScaleKblocks) * kPitch<TN>;
  const float sb = sc[TN];
  const float4* mine = reinterpret_cast<const float4*>(sc + (lane % 4) * (TN / 4));
#pragma unroll
  for (int h = 0; h < TN / 16; ++h) {
    const float4 v = mine[h];  // tokens of column groups 2h (x, y) and 2h + 1 (z, w)
    const float s[4] = {v.x * sb, v.y * sb, v.z * sb, v.w * sb};
#pragma unroll
    for (int g = 0; g < 2; ++g) {
      const int j = 2 * h + g;
      acc[4 * j + 0] = fmaf(part[4 * j + 0], s[2 * g], acc[4 * j + 0]);
      acc[4 * j + 1] = fmaf(part[4 * j + 1], s[2 * g + 1], acc[4 * j + 1]);
      acc[4 * j + 2] = fmaf(part[4 * j + 2], s[2 * g], acc[4 * j + 2]);
      acc[4 * j + 3] = fmaf(part[4 * j + 3], s[2 * g + 1], acc[4 * j + 3]);
    }
  }
}

// Mode ahead: a k-block's scales (the thread's TN / 4 a_scales and the b_scale), loaded a turn early.
template <int TN>
struct Scales {
  float a[TN / 4], b;
};
template <int TN>
__device__ __forceinline__ void load_scales_regs(Scales<TN>& r, const float* scales, int kb) {
  const int lane = threadIdx.x % 32;
  const float* sc = scales + (kb % kScaleKblocks) * kPitch<TN>;
  r.b = sc[TN];
#pragma unroll
  for (int j = 0; j < TN / 8; ++j) r.a[2 * j] = sc[8 * j + 2 * (lane % 4)], r.a[2 * j + 1] = sc[8 * j + 2 * (lane % 4) + 1];
}
template <int TN>
__device__ __forceinline__ void promote_regs(float (&acc)[TN / 2], float (&part)[TN / 2], const Scales<TN>& r) {
  ptx::fence_regs(part);
#pragma unroll
  for (int j = 0; j < TN / 8; ++j) {
    const float s0 = r.a[2 * j] * r.b, s1 = r.a[2 * j + 1] * r.b;
    acc[4 * j + 0] = fmaf(part[4 * j + 0], s0, acc[4 * j + 0]);
    acc[4 * j + 1] = fmaf(part[4 * j + 1], s1, acc[4 * j + 1]);
    acc[4 * j + 2] = fmaf(part[4 * j + 2], s0, acc[4 * j + 2]);
    acc[4 * j + 3] = fmaf(part[4 * j + 3], s1, acc[4 * j + 3]);
  }
}

template <int TN, int MODE>
__device__ __forceinline__ void promote_mode(float (&acc)[TN / 2], float (&part)[TN / 2], const float* scales,
                                             int kb) {
  if constexpr (MODE == kWide) {
    promote_wide<TN>(acc, part, scales, kb);
  } else if constexpr (MODE == kRegs) {
    ptx::fence_regs(part);
    const float s = 1.0f + float(kb) * 1e-7f;
#pragma unroll
    for (int i = 0; i < TN / 2; ++i) acc[i] = fmaf(part[i], s, acc[i]);
  } else {
    promote<TN>(acc, part, scales, kb);
  }
}

// Mode tokens_a: m64n64k32 with the token tile as A, the weight tile as B, in the kernel's order.
// Accumulator (row, column) = (token, weight row): a thread holds tokens 16 w + lane / 4 and + 8 of its
// warp w, weight rows 8j + 2 (lane % 4) + {0, 1}.
__device__ __forceinline__ void issue_tokens_a(float (&part)[32], uint64_t desc_t, uint64_t desc_w) {
  ptx::fence_regs(part);
  ptx::wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < 4; ++kk)
    ptx::WgmmaE4M3<64>::mma(part, ptx::desc_advance(desc_t, kk * 32), ptx::desc_advance(desc_w, kk * 32), kk > 0);
  ptx::wgmma_commit();
  ptx::fence_regs(part);
}
template <int TN>
__device__ __forceinline__ void promote_tokens_a(float (&acc)[32], float (&part)[32], const float* scales, int kb) {
  ptx::fence_regs(part);
  const int tok = 16 * ((threadIdx.x / 32) % 4) + threadIdx.x % 32 / 4;
  if (tok >= TN) return;  // a 32-token tile: rows 32..63 are past it
  const float* sc = scales + (kb % kScaleKblocks) * kPitch<TN>;
  const float sb = sc[TN];
  const float s_lo = sc[tok] * sb, s_hi = sc[tok + 8] * sb;
#pragma unroll
  for (int j = 0; j < 8; ++j) {
    acc[4 * j + 0] = fmaf(part[4 * j + 0], s_lo, acc[4 * j + 0]);
    acc[4 * j + 1] = fmaf(part[4 * j + 1], s_lo, acc[4 * j + 1]);
    acc[4 * j + 2] = fmaf(part[4 * j + 2], s_hi, acc[4 * j + 2]);
    acc[4 * j + 3] = fmaf(part[4 * j + 3], s_hi, acc[4 * j + 3]);
  }
}
// A thread's accumulator registers a k-block: TN / 2, or 32 with the tokens on M (m64n64).
template <int TN, int MODE>
constexpr int kParts = MODE == kTokensA ? 32 : TN / 2;

template <int TN, int W, int MODE>
__global__ void __launch_bounds__(128 * W, 1) decode_loop_kernel(const uint8_t* src, const float* scale_src,
                                                                  int kblocks, long long* cycles, float* sink) {
  extern __shared__ uint8_t raw[];
  const Operands<TN> o = load_operands<TN, W>(raw, src, scale_src);
  constexpr int kP = kParts<TN, MODE>;
  float p0[kP], p1[kP], acc[kP];
#pragma unroll
  for (int i = 0; i < kP; ++i) acc[i] = 0.f, p0[i] = p1[i] = 1.f;
  const long long t0 = clock64();
  if constexpr (MODE == kMma) {
    for (int kb = 0; kb < kblocks; ++kb) {
      issue<TN>(p0, o);
      ptx::wgmma_wait<0>();
      ptx::fence_regs(p0);
      acc[0] += p0[0];  // a use keeps the k-block's wgmmas: ptxas drops those whose results die
    }
  } else if constexpr (MODE == kPromote) {
    for (int kb = 0; kb < kblocks; kb += 2) {
      promote<TN>(acc, p0, o.scales, kb);
      promote<TN>(acc, p1, o.scales, kb + 1);
    }
  } else if constexpr (MODE == kAhead) {
    Scales<TN> r0, r1;
    issue<TN>(p0, o);
    load_scales_regs<TN>(r0, o.scales, 0);
    for (int kb = 0;; kb += 2) {
      ptx::wgmma_wait<0>();
      issue<TN>(p1, o);
      load_scales_regs<TN>(r1, o.scales, kb + 1);
      ptx::wgmma_wait<1>();
      promote_regs<TN>(acc, p0, r0);
      if (kb + 2 >= kblocks) {
        ptx::wgmma_wait<0>();
        promote_regs<TN>(acc, p1, r1);
        break;
      }
      ptx::wgmma_wait<0>();
      issue<TN>(p0, o);
      load_scales_regs<TN>(r0, o.scales, kb + 2);
      ptx::wgmma_wait<1>();
      promote_regs<TN>(acc, p1, r1);
    }
  } else if constexpr (MODE == kBefore) {
    Scales<TN> r;
    issue<TN>(p0, o);
    for (int kb = 0;; kb += 2) {
      ptx::wgmma_wait<0>();
      load_scales_regs<TN>(r, o.scales, kb);
      issue<TN>(p1, o);
      ptx::wgmma_wait<1>();
      promote_regs<TN>(acc, p0, r);
      if (kb + 2 >= kblocks) {
        ptx::wgmma_wait<0>();
        load_scales_regs<TN>(r, o.scales, kb + 1);
        promote_regs<TN>(acc, p1, r);
        break;
      }
      ptx::wgmma_wait<0>();
      load_scales_regs<TN>(r, o.scales, kb + 1);
      issue<TN>(p0, o);
      ptx::wgmma_wait<1>();
      promote_regs<TN>(acc, p1, r);
    }
  } else {
    // The kernel's order (kernel, wide, regs, tokens_a): k-blocks kb (in p0) and kb + 1 (in p1) a turn;
    // kblocks is even.
    auto issue_k = [&](float (&part)[kP]) {
      if constexpr (MODE == kTokensA) issue_tokens_a(part, o.desc_t, o.desc_w);
      else issue<TN>(part, o);
    };
    auto promote_k = [&](float (&part)[kP], int kb) {
      if constexpr (MODE == kTokensA) promote_tokens_a<TN>(acc, part, o.scales, kb);
      else promote_mode<TN, MODE>(acc, part, o.scales, kb);
    };
    issue_k(p0);
    for (int kb = 0;; kb += 2) {
      ptx::wgmma_wait<0>();
      issue_k(p1);
      ptx::wgmma_wait<1>();
      promote_k(p0, kb);
      if (kb + 2 >= kblocks) {
        ptx::wgmma_wait<0>();
        promote_k(p1, kb + 1);
        break;
      }
      ptx::wgmma_wait<0>();
      issue_k(p0);
      ptx::wgmma_wait<1>();
      promote_k(p1, kb + 1);
    }
  }
  const long long t1 = clock64();
  float keep = 0.f;
#pragma unroll
  for (int i = 0; i < kP; ++i) keep += acc[i];
  if (keep == 12345.f) sink[threadIdx.x] = keep;  // never: keeps the sums alive
  if (threadIdx.x % 128 == 0) cycles[blockIdx.x * W + threadIdx.x / 128] = t1 - t0;
}

struct Run {
  double per_wg, per_cta;
};

template <int TN, int W, int MODE>
Run run(const uint8_t* src, const float* scale_src, int kblocks, int sms, long long* d_cycles, float* sink) {
  auto kernel = decode_loop_kernel<TN, W, MODE>;
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
  kernel<<<sms, 128 * W, kSmemBytes>>>(src, scale_src, kblocks, d_cycles, sink);  // warm-up
  kernel<<<sms, 128 * W, kSmemBytes>>>(src, scale_src, kblocks, d_cycles, sink);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("TN=%d W=%d %s: %s\n", TN, W, kModeNames[MODE], cudaGetErrorString(cudaGetLastError()));
    std::exit(1);
  }
  std::vector<long long> c(size_t(sms) * W);
  cudaMemcpy(c.data(), d_cycles, c.size() * sizeof(long long), cudaMemcpyDeviceToHost);
  std::vector<double> slowest(sms);
  for (int b = 0; b < sms; ++b) {
    long long m = 0;
    for (int w = 0; w < W; ++w) m = std::max(m, c[size_t(b) * W + w]);
    slowest[b] = double(m) / kblocks;
  }
  std::nth_element(slowest.begin(), slowest.begin() + sms / 2, slowest.end());
  const double per_wg = slowest[sms / 2];
  return {per_wg, per_wg / W};
}

template <int TN>
void sweep(const uint8_t* src, const float* scale_src, int kblocks, int sms, long long* d_cycles, float* sink) {
  Run r[2][8] = {
      {run<TN, 1, kMma>(src, scale_src, kblocks, sms, d_cycles, sink),
       run<TN, 1, kPromote>(src, scale_src, kblocks, sms, d_cycles, sink),
       run<TN, 1, kKernel>(src, scale_src, kblocks, sms, d_cycles, sink), {},
       run<TN, 1, kRegs>(src, scale_src, kblocks, sms, d_cycles, sink),
       run<TN, 1, kAhead>(src, scale_src, kblocks, sms, d_cycles, sink),
       run<TN, 1, kBefore>(src, scale_src, kblocks, sms, d_cycles, sink), {}},
      {run<TN, 2, kMma>(src, scale_src, kblocks, sms, d_cycles, sink),
       run<TN, 2, kPromote>(src, scale_src, kblocks, sms, d_cycles, sink),
       run<TN, 2, kKernel>(src, scale_src, kblocks, sms, d_cycles, sink), {},
       run<TN, 2, kRegs>(src, scale_src, kblocks, sms, d_cycles, sink),
       run<TN, 2, kAhead>(src, scale_src, kblocks, sms, d_cycles, sink),
       run<TN, 2, kBefore>(src, scale_src, kblocks, sms, d_cycles, sink), {}}};
  if constexpr (TN >= 16) {
    r[0][3] = run<TN, 1, kWide>(src, scale_src, kblocks, sms, d_cycles, sink);
    r[1][3] = run<TN, 2, kWide>(src, scale_src, kblocks, sms, d_cycles, sink);
  }
  if constexpr (TN >= 32) {
    r[0][kTokensA] = run<TN, 1, kTokensA>(src, scale_src, kblocks, sms, d_cycles, sink);
    r[1][kTokensA] = run<TN, 2, kTokensA>(src, scale_src, kblocks, sms, d_cycles, sink);
  }
  for (int m = 0; m < 8; ++m) {
    if ((m == kWide && TN < 16) || (m == kTokensA && TN < 32)) continue;
    std::printf("%3d tokens  %-8s  1 warpgroup: %7.1f cycles/k-block   2 warpgroups: %7.1f a warpgroup, %7.1f a CTA\n",
                TN, kModeNames[m], r[0][m].per_wg, r[1][m].per_wg, r[1][m].per_cta);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int kblocks = argc > 1 ? std::max(2, std::atoi(argv[1]) / 2 * 2) : 4096;
  int dev = 0, sms = 0, clock_khz = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev);
  std::printf("decode_loop: %d SMs (max clock %.0f MHz), %d k-blocks a warpgroup, operands resident\n", sms,
              clock_khz / 1e3, kblocks);
  std::mt19937 rng(12345);
  std::vector<uint8_t> h_src(2 * wg_bytes<64>());
  for (auto& b : h_src) b = uint8_t(rng() & 0x77);  // finite e4m3 (no NaN encodings)
  std::vector<float> h_scales(kScaleKblocks * kPitch<64>);
  for (auto& s : h_scales) s = 0.5f + float(rng() % 1000) * 1e-3f;
  uint8_t* src = nullptr;
  float *scale_src = nullptr, *sink = nullptr;
  long long* d_cycles = nullptr;
  cudaMalloc(&src, h_src.size());
  cudaMalloc(&scale_src, h_scales.size() * sizeof(float));
  cudaMalloc(&sink, 256 * sizeof(float));
  cudaMalloc(&d_cycles, size_t(sms) * 2 * sizeof(long long));
  cudaMemcpy(src, h_src.data(), h_src.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(scale_src, h_scales.data(), h_scales.size() * sizeof(float), cudaMemcpyHostToDevice);
  sweep<8>(src, scale_src, kblocks, sms, d_cycles, sink);
  sweep<32>(src, scale_src, kblocks, sms, d_cycles, sink);
  sweep<64>(src, scale_src, kblocks, sms, d_cycles, sink);
  return 0;
}
