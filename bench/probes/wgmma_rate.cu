// Probe: what the tiled kernel's k-block costs with nothing but tensor work in it, and with each piece
// of its loop added back. Two math warpgroups per CTA, one CTA per SM on every SM, operands resident in
// shared memory (the kernel's layout: a 128 x 128 B token tile, a BN x 128 B weight tile, 128-byte
// swizzle), no TMA and no global traffic. A k-block is four m64nBNk32 e4m3 wgmmas a warpgroup, as in
// src/kernels/tiled_gemm.cu. Modes, each adding to the one before:
//   stream  every k-block's group committed, one wait at the end (the tensor pipe's own rate)
//   wait    wgmma.wait_group 0 after each k-block (the kernel waits before promoting), and one FADD
//           of the result (without a use, ptxas deletes the k-block's wgmmas: they write dead registers)
//   promote + the promotion: BN/2 FFMAs a thread with scales read from shared memory
//   turns   + the issue turns (named barriers) that alternate the warpgroups, as the kernel does
//   pipe    promote, with k-block i + 1 issued (into a second accumulator set) before k-block i is
//           waited for and promoted; no turns (BN <= 128: three accumulator sets must fit). Written
//           as the decode kernel's loop: an unconditional last issue with the final wait after the
//           loop made ptxas serialize every wgmma (C7514), which -Xptxas -v reports.
// and, fed through shared memory as the kernel is fed (ring_a: every CTA's token tile the same rows;
// ring: each CTA its own token and weight rows):
//   ring    turns, with each k-block's tiles TMA-loaded into a ring of six stages (full/empty
//           mbarriers, every math thread arriving on the empty one), from a source of
//           kRingSourceKblocks k-blocks that the CTAs cycle through, so that it stays in L2 after
//           the first pass
//   ring_s3 the same with three stages (half the bytes in flight)
//   ring_k2 two k-blocks a stage (one barrier round trip per two; as many stages as 220 KB holds)
//   ring_sc ring, plus the kernel's scale warp (cp.async of each k-block's scales, 32 more arrivals
//           on the full barrier) and each math thread's scale reads
// Prints the median over CTAs of cycles a k-block (clock64 around the loop, the slower warpgroup)
// against the tensor work, 4 * BN cycles a k-block at 8192 dense fp8 FLOP a cycle an SM.
//   Usage: wgmma_rate [k-blocks per CTA, default 2048]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "kernels/host_support.h"
#include "kernels/ptx.cuh"

namespace ptx = blockfp8::ptx;

namespace {

enum Mode { kStream, kWait, kPromote, kTurns, kPipe };
constexpr const char* kModeNames[] = {"stream", "wait", "promote", "turns", "pipe"};
constexpr int kTokens = 128, kRowBytes = 128;

// The operands, resident for the whole run: the token and weight tiles copied from `src` into the
// kernel's layout, and 128 scales after them; the descriptors of this warpgroup's 64 token rows and
// of the weight tile.
struct Resident {
  uint64_t desc_a, desc_b;
  const float* scales;
};

template <int BN>
__device__ __forceinline__ Resident load_resident(uint8_t* raw, const uint8_t* src) {
  uint8_t* smem = ptx::align_smem_1024(raw);
  float* scales = reinterpret_cast<float*>(smem + (kTokens + BN) * kRowBytes);
  for (int i = threadIdx.x * 16; i < (kTokens + BN) * kRowBytes; i += blockDim.x * 16)
    *reinterpret_cast<uint4*>(smem + i) = *reinterpret_cast<const uint4*>(src + i);
  if (threadIdx.x < 128) scales[threadIdx.x] = 1.0f + threadIdx.x * 1e-3f;
  ptx::fence_proxy_async_shared();  // generic-proxy writes, before wgmma reads them
  __syncthreads();
  return {ptx::wgmma_desc_k128_sw128(smem + threadIdx.x / 128 * 64 * kRowBytes),
          ptx::wgmma_desc_k128_sw128(smem + kTokens * kRowBytes), scales};
}

// Each warpgroup's loop time; the sums are kept alive through a store that never happens.
template <int N>
__device__ __forceinline__ void report(const float (&acc)[N], long long t0, long long t1, long long* cycles,
                                       float* sink) {
  float keep = 0.f;
#pragma unroll
  for (int i = 0; i < N; ++i) keep += acc[i];
  if (keep == 12345.f) sink[threadIdx.x] = keep;
  if (threadIdx.x % 128 == 0) cycles[blockIdx.x * 2 + threadIdx.x / 128] = t1 - t0;
}

template <int BN, int MODE>
__global__ void __launch_bounds__(256, 1) wgmma_rate_kernel(const uint8_t* src, int kblocks, long long* cycles,
                                                             float* sink) {
  extern __shared__ uint8_t raw[];
  const auto [desc_a, desc_b, scales] = load_resident<BN>(raw, src);
  const int wg = threadIdx.x / 128;
  float part[BN / 2], acc[BN / 2];
#pragma unroll
  for (int i = 0; i < BN / 2; ++i) acc[i] = 0.f;
  bool first = true;
  const long long t0 = clock64();
  for (int kb = 0; kb < kblocks; ++kb) {
    if (MODE == kTurns) {
      if (wg == 1) ptx::named_barrier(4, 256);
      else if (!first) ptx::named_barrier(3, 256);
      first = false;
    }
    ptx::wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < 4; ++kk)
      ptx::WgmmaE4M3<BN>::mma(part, ptx::desc_advance(desc_a, kk * 32), ptx::desc_advance(desc_b, kk * 32),
                              MODE == kStream ? (kb > 0 || kk > 0) : kk > 0);
    ptx::wgmma_commit();
    if (MODE == kTurns) ptx::named_barrier_arrive(wg == 0 ? 4 : 3, 256);
    if (MODE != kStream) {
      ptx::wgmma_wait<0>();
      ptx::fence_regs(part);
      if (MODE >= kPromote) {
        const float s = scales[(kb + threadIdx.x) & 127];
#pragma unroll
        for (int i = 0; i < BN / 2; ++i) acc[i] = fmaf(part[i], s, acc[i]);
      } else {
        acc[0] += part[0];  // one use keeps the k-block's wgmmas: ptxas drops those whose results die
      }
    }
  }
  ptx::wgmma_wait<0>();
  ptx::fence_regs(part);
  if (MODE == kTurns && wg == 0) ptx::named_barrier(3, 256);
  const long long t1 = clock64();
  report(MODE == kStream ? part : acc, t0, t1, cycles, sink);
}


template <int BN>
__device__ __forceinline__ void issue_kblock(float (&part)[BN / 2], uint64_t desc_a, uint64_t desc_b) {
  ptx::fence_regs(part);
  ptx::wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < 4; ++kk)
    ptx::WgmmaE4M3<BN>::mma(part, ptx::desc_advance(desc_a, kk * 32), ptx::desc_advance(desc_b, kk * 32), kk > 0);
  ptx::wgmma_commit();
  ptx::fence_regs(part);
}

template <int BN>
__device__ __forceinline__ void promote_probe(float (&acc)[BN / 2], float (&part)[BN / 2], float s) {
  ptx::fence_regs(part);
#pragma unroll
  for (int i = 0; i < BN / 2; ++i) acc[i] = fmaf(part[i], s, acc[i]);
}

// One step of the pipelined loop: k-block kb + 1 issued into `next` (where there is one), then
// k-block kb waited for and promoted from `cur`. False after the last k-block.
template <int BN>
__device__ __forceinline__ bool pipe_step(float (&cur)[BN / 2], float (&next)[BN / 2], float (&acc)[BN / 2],
                                          uint64_t desc_a, uint64_t desc_b, const float* scales, int kb,
                                          int kblocks) {
  const float s = scales[(kb + threadIdx.x) & 127];
  if (kb + 1 < kblocks) {
    issue_kblock<BN>(next, desc_a, desc_b);
    ptx::wgmma_wait<1>();
    promote_probe<BN>(acc, cur, s);
    return true;
  }
  ptx::wgmma_wait<0>();
  promote_probe<BN>(acc, cur, s);
  return false;
}

template <int BN>
__global__ void __launch_bounds__(256, 1) wgmma_pipe_kernel(const uint8_t* src, int kblocks, long long* cycles,
                                                             float* sink) {
  extern __shared__ uint8_t raw[];
  const auto [desc_a, desc_b, scales] = load_resident<BN>(raw, src);
  float p0[BN / 2], p1[BN / 2], acc[BN / 2];
#pragma unroll
  for (int i = 0; i < BN / 2; ++i) acc[i] = 0.f;
  const long long t0 = clock64();
  issue_kblock<BN>(p0, desc_a, desc_b);
  for (int kb = 0;; kb += 2) {
    if (!pipe_step<BN>(p0, p1, acc, desc_a, desc_b, scales, kb, kblocks)) break;
    if (!pipe_step<BN>(p1, p0, acc, desc_a, desc_b, scales, kb + 1, kblocks)) break;
  }
  const long long t1 = clock64();
  report(acc, t0, t1, cycles, sink);
}


// ------------------------------------------------------------------------------------------------
// ring: the turns loop fed through a TMA ring.
constexpr int kRingSourceKblocks = 8;
constexpr int kRingThreads = 384;  // two math warpgroups and a producer warpgroup, as in the kernel

// A ring is kStages stages (at most what 220 KB holds) of KB k-blocks each; a stage holds, per
// k-block, the token tile and then the weight tile.
template <int BN>
__host__ __device__ constexpr int ring_kblock_bytes() { return (kTokens + BN) * kRowBytes; }
template <int BN, int KB, int kMaxStages>
__host__ __device__ constexpr int ring_stages() {
  return (220 * 1024) / (KB * ring_kblock_bytes<BN>()) < kMaxStages ? (220 * 1024) / (KB * ring_kblock_bytes<BN>())
                                                                    : kMaxStages;
}

// kScales (ring_sc): as the kernel, one more producer warp cp.asyncs each k-block's 128 token scales
// and 4 weight-block scales into the stage and arrives on its full barrier (lane by lane, when the
// copies land), and each math thread reads its two token scales and the weight scales before
// promoting (KB = 1 only).
constexpr int kScaleFloats = kTokens + 4;

template <int BN, bool kShareA, int KB, int kMaxStages, bool kScales = false>
__global__ void __launch_bounds__(kRingThreads, 1)
    wgmma_ring_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                      const float* scale_src, int kblocks, long long* cycles, float* sink) {
  static_assert(!kScales || KB == 1, "scales are copied per k-block");
  constexpr int S = ring_stages<BN, KB, kMaxStages>(), kStageBytes = KB * ring_kblock_bytes<BN>();
  extern __shared__ uint8_t raw[];
  uint8_t* smem = ptx::align_smem_1024(raw);
  float* scales = reinterpret_cast<float*>(smem + S * kStageBytes);
  uint64_t* full = reinterpret_cast<uint64_t*>(scales + (kScales ? S * kScaleFloats : 0));
  uint64_t* empty = full + S;
  if (threadIdx.x == 0) {
    for (int i = 0; i < S; ++i) ptx::mbar_init(&full[i], kScales ? 1 + 32 : 1), ptx::mbar_init(&empty[i], 256);
    ptx::fence_barrier_init();
  }
  __syncthreads();
  const int wg = threadIdx.x / 128;
  if (wg == 2) {
    ptx::setmaxnreg_dec<40>();
    if (kScales && threadIdx.x / 32 == 9) {
      const int lane = threadIdx.x % 32;
      int s = 0;
      uint32_t phase = 0;
      for (int kb = 0; kb < kblocks; ++kb) {
        ptx::mbar_wait(&empty[s], phase ^ 1);
        float* sc = scales + s * kScaleFloats;
        const float* src = scale_src + (kb % kRingSourceKblocks) * kScaleFloats;
#pragma unroll
        for (int i = 0; i < kTokens / 32; ++i) ptx::cp_async_4(sc + lane + 32 * i, src + lane + 32 * i, true);
        if (lane < 4) ptx::cp_async_4(sc + kTokens + lane, src + kTokens + lane, true);
        ptx::cp_async_mbar_arrive_noinc(&full[s]);
        if (++s == S) s = 0, phase ^= 1;
      }
      return;
    }
    if (threadIdx.x != 256) return;
    const uint64_t policy = ptx::l2_evict_normal();
    const int a_row = kShareA ? 0 : int(blockIdx.x) * kTokens, b_row = int(blockIdx.x) * BN;
    int s = 0;
    uint32_t phase = 0;
    for (int kb = 0; kb < kblocks; kb += KB) {
      ptx::mbar_wait(&empty[s], phase ^ 1);
      uint8_t* stage = smem + s * kStageBytes;
      ptx::mbar_arrive_expect_tx(&full[s], kStageBytes);
      for (int j = 0; j < KB; ++j) {
        const int x = ((kb + j) % kRingSourceKblocks) * kRowBytes;
        uint8_t* block = stage + j * ring_kblock_bytes<BN>();
        ptx::tma_load_2d(block, &map_a, &full[s], x, a_row, policy);
        ptx::tma_load_2d(block + kTokens * kRowBytes, &map_b, &full[s], x, b_row, policy);
      }
      if (++s == S) s = 0, phase ^= 1;
    }
    return;
  }
  ptx::setmaxnreg_inc<232>();
  float part[BN / 2], acc[BN / 2];
#pragma unroll
  for (int i = 0; i < BN / 2; ++i) acc[i] = 0.f;
  bool first = true;
  int s = 0;
  uint32_t phase = 0;
  const long long t0 = clock64();
  for (int kb = 0; kb < kblocks; kb += KB) {
    ptx::mbar_wait(&full[s], phase);
#pragma unroll
    for (int j = 0; j < KB; ++j) {
      const uint8_t* block = smem + s * kStageBytes + j * ring_kblock_bytes<BN>();
      if (wg == 1) ptx::named_barrier(4, 256);
      else if (!first) ptx::named_barrier(3, 256);
      first = false;
      const uint64_t desc_a = ptx::wgmma_desc_k128_sw128(block + wg * 64 * kRowBytes);
      const uint64_t desc_b = ptx::wgmma_desc_k128_sw128(block + kTokens * kRowBytes);
      ptx::wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < 4; ++kk)
        ptx::WgmmaE4M3<BN>::mma(part, ptx::desc_advance(desc_a, kk * 32), ptx::desc_advance(desc_b, kk * 32),
                                kk > 0);
      ptx::wgmma_commit();
      ptx::named_barrier_arrive(wg == 0 ? 4 : 3, 256);
      ptx::wgmma_wait<0>();
      ptx::fence_regs(part);
      float sc0, sc1;
      if constexpr (kScales) {  // the kernel's KScales: two token scales times a weight-block scale
        const float* ks = scales + s * kScaleFloats;
        const int row = 64 * wg + 16 * ((threadIdx.x % 128) / 32) + (threadIdx.x % 32) / 4;
        const float4 sb = *reinterpret_cast<const float4*>(ks + kTokens);
        sc0 = ks[row] * sb.x, sc1 = ks[row + 8] * sb.y;
      } else {
        sc0 = sc1 = 1.0f + float((kb + j + threadIdx.x) & 127) * 1e-3f;
      }
      if (j == KB - 1) ptx::mbar_arrive(&empty[s]);  // after this thread's scale reads
#pragma unroll
      for (int i = 0; i < BN / 2; ++i) acc[i] = fmaf(part[i], (i / 2) % 2 ? sc1 : sc0, acc[i]);
    }
    if (++s == S) s = 0, phase ^= 1;
  }
  if (wg == 0) ptx::named_barrier(3, 256);
  const long long t1 = clock64();
  report(acc, t0, t1, cycles, sink);
}

// A [rows][kRingSourceKblocks * 128] fp8 matrix read as 128-byte-wide boxes of box_rows rows.
CUtensorMap ring_map(const uint8_t* base, int rows, int box_rows) {
  blockfp8::detail::TileMapSpec spec;
  spec.base = base, spec.rows = rows, spec.cols = kRingSourceKblocks * kRowBytes;
  spec.ld_bytes = kRingSourceKblocks * kRowBytes, spec.box_cols = kRowBytes, spec.box_rows = box_rows;
  CUtensorMap map{};
  if (!blockfp8::detail::cached_tile_map(&map, spec)) {
    std::printf("tensor map encoding failed\n");
    std::exit(1);
  }
  return map;
}

double median_per_kblock(const long long* d_cycles, int sms, int kblocks) {
  std::vector<long long> wg_cycles(size_t(sms) * 2);
  cudaMemcpy(wg_cycles.data(), d_cycles, wg_cycles.size() * sizeof(long long), cudaMemcpyDeviceToHost);
  std::vector<double> per;
  for (int i = 0; i < sms; ++i) {
    const long long slower = std::max(wg_cycles[2 * i], wg_cycles[2 * i + 1]);
    per.push_back(double(slower) / kblocks);
  }
  std::sort(per.begin(), per.end());
  return per[per.size() / 2];
}

template <int BN, bool kShareA, int KB, int kMaxStages, bool kScales = false>
void run_ring(const char* name, const uint8_t* src_a, const uint8_t* src_b, const float* scale_src, int kblocks,
              int sms, long long* d_cycles, float* d_sink) {
  const CUtensorMap map_a = ring_map(src_a, kShareA ? kTokens : sms * kTokens, kTokens);
  const CUtensorMap map_b = ring_map(src_b, sms * BN, BN);
  constexpr int S = ring_stages<BN, KB, kMaxStages>();
  const int smem = 1024 + S * (KB * ring_kblock_bytes<BN>() + 16 + (kScales ? kScaleFloats * 4 : 0));
  auto* kernel = wgmma_ring_kernel<BN, kShareA, KB, kMaxStages, kScales>;
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  for (int rep = 0; rep < 2; ++rep)
    kernel<<<sms, kRingThreads, smem>>>(map_a, map_b, scale_src, kblocks, d_cycles, d_sink);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("BN %d %s: %s\n", BN, name, cudaGetErrorString(cudaGetLastError()));
    std::exit(1);
  }
  const double med = median_per_kblock(d_cycles, sms, kblocks), tensor = 4.0 * BN;
  std::printf("| %3d | %-7s | %7.0f | %5.0f | %5.2f |\n", BN, name, med, tensor, med / tensor);
}

template <int BN, int MODE>
void run(const uint8_t* src, int kblocks, int sms, long long* d_cycles, float* d_sink) {
  // 200 KB of shared memory a CTA: one CTA an SM, as the tiled kernel runs. Run twice: the first
  // run ramps the clock.
  for (int rep = 0; rep < 2; ++rep) {
    if constexpr (MODE == kPipe) {
      cudaFuncSetAttribute(wgmma_pipe_kernel<BN>, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
      wgmma_pipe_kernel<BN><<<sms, 256, 200 * 1024>>>(src, kblocks, d_cycles, d_sink);
    } else {
      cudaFuncSetAttribute(wgmma_rate_kernel<BN, MODE>, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
      wgmma_rate_kernel<BN, MODE><<<sms, 256, 200 * 1024>>>(src, kblocks, d_cycles, d_sink);
    }
  }
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("BN %d %s: %s\n", BN, kModeNames[MODE], cudaGetErrorString(cudaGetLastError()));
    std::exit(1);
  }
  const double med = median_per_kblock(d_cycles, sms, kblocks), tensor = 4.0 * BN;
  std::printf("| %3d | %-7s | %7.0f | %5.0f | %5.2f |\n", BN, kModeNames[MODE], med, tensor, med / tensor);
}

template <int BN>
void run_all(const uint8_t* src, const uint8_t* ring_a, const uint8_t* ring_b, const float* ring_sc, int kblocks,
             int sms, long long* d_cycles, float* d_sink) {
  run<BN, kStream>(src, kblocks, sms, d_cycles, d_sink);
  run<BN, kWait>(src, kblocks, sms, d_cycles, d_sink);
  run<BN, kPromote>(src, kblocks, sms, d_cycles, d_sink);
  run<BN, kTurns>(src, kblocks, sms, d_cycles, d_sink);
  if constexpr (BN <= 128) run<BN, kPipe>(src, kblocks, sms, d_cycles, d_sink);
  run_ring<BN, true, 1, 6>("ring_a", ring_a, ring_b, ring_sc, kblocks, sms, d_cycles, d_sink);
  run_ring<BN, false, 1, 6>("ring", ring_a, ring_b, ring_sc, kblocks, sms, d_cycles, d_sink);
  run_ring<BN, false, 1, 3>("ring_s3", ring_a, ring_b, ring_sc, kblocks, sms, d_cycles, d_sink);
  run_ring<BN, false, 2, 6>("ring_k2", ring_a, ring_b, ring_sc, kblocks, sms, d_cycles, d_sink);
  run_ring<BN, false, 1, 6, true>("ring_sc", ring_a, ring_b, ring_sc, kblocks, sms, d_cycles, d_sink);
}

}  // namespace

int main(int argc, char** argv) {
  const int kblocks = (argc > 1 ? std::atoi(argv[1]) : 2048) / 2 * 2;  // even: the pipe mode goes in pairs
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  // Random e4m3 bytes (NaN encodings replaced): the tensor core's time may depend on the data.
  std::vector<uint8_t> h((kTokens + 192) * kRowBytes);
  std::mt19937 rng(7);
  for (uint8_t& b : h) {
    b = uint8_t(rng());
    if ((b & 0x7f) == 0x7f) b ^= 1;
  }
  uint8_t* src = nullptr;
  long long* d_cycles = nullptr;
  float* d_sink = nullptr;
  cudaMalloc(&src, h.size());
  cudaMalloc(&d_cycles, sizeof(long long) * 2 * size_t(sms));
  cudaMalloc(&d_sink, sizeof(float) * 256);
  cudaMemcpy(src, h.data(), h.size(), cudaMemcpyHostToDevice);
  // The ring's sources: per CTA 128 token rows and up to 192 weight rows of kRingSourceKblocks
  // k-blocks (132 SMs: 16.5 + 24.8 MB, within the L2), random e4m3 bytes as above.
  const size_t ring_a_bytes = size_t(sms) * kTokens * kRingSourceKblocks * kRowBytes;
  const size_t ring_b_bytes = size_t(sms) * 192 * kRingSourceKblocks * kRowBytes;
  std::vector<uint8_t> hr(std::max(ring_a_bytes, ring_b_bytes));
  for (uint8_t& b : hr) {
    b = uint8_t(rng());
    if ((b & 0x7f) == 0x7f) b ^= 1;
  }
  uint8_t *ring_a = nullptr, *ring_b = nullptr;
  cudaMalloc(&ring_a, ring_a_bytes);
  cudaMalloc(&ring_b, ring_b_bytes);
  cudaMemcpy(ring_a, hr.data(), ring_a_bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(ring_b, hr.data(), ring_b_bytes, cudaMemcpyHostToDevice);
  std::vector<float> hs(size_t(kRingSourceKblocks) * kScaleFloats);
  for (float& v : hs) v = 0.5f + float(rng() % 1024) / 1024.0f;
  float* ring_sc = nullptr;
  cudaMalloc(&ring_sc, hs.size() * sizeof(float));
  cudaMemcpy(ring_sc, hs.data(), hs.size() * sizeof(float), cudaMemcpyHostToDevice);
  std::printf("wgmma_rate: %d CTAs of two math warpgroups, %d k-blocks each; cycles a k-block (median CTA)\n\n",
              sms, kblocks);
  std::printf("| BN | mode | cycles | tensor | ratio |\n|---:|---|---:|---:|---:|\n");
  run_all<64>(src, ring_a, ring_b, ring_sc, kblocks, sms, d_cycles, d_sink);
  run_all<128>(src, ring_a, ring_b, ring_sc, kblocks, sms, d_cycles, d_sink);
  run_all<192>(src, ring_a, ring_b, ring_sc, kblocks, sms, d_cycles, d_sink);
  cudaFree(src);
  cudaFree(ring_a);
  cudaFree(ring_b);
  cudaFree(ring_sc);
  cudaFree(d_cycles);
  cudaFree(d_sink);
  return 0;
}
