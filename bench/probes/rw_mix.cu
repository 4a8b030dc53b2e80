// Probe: what the quantiser's traffic costs with no arithmetic in it. blockfp8_quantize_1x128 reads 2
// bytes of bf16 X and writes 1 byte of X_q per element (+ 4 bytes of scale per 128); at M = 4096,
// K = 7168 it moves 3.2-3.5 TB/s, 0.70-0.77x the streaming floor's read-only rate. This probe runs the
// quantiser's exact access pattern (kernels/quantize_1x128.cu: a half-warp a group of 128, 16-byte
// loads, 8-byte stores, 2U = 8 groups a warp item, one item a warp; 256-thread CTAs, as the quantiser
// had when this probe measured it, s27 calls 6-7: 3.67 TB/s for copy, the quantiser 1.13x that time)
// with the math replaced by byte packing, to say whether that rate is the memory system's for a 2:1
// read:write mix or the quantiser's own:
//   read    the loads only (a checksum keeps them alive)
//   write   the stores only (X_q and the scales)
//   copy    both: the quantiser's traffic, no math
//   quant   blockfp8_quantize_1x128 itself (fp32 row-major scales), through the C API
// Each mode is timed over rotating copies of X and X_q (4 x 88 MB, past the L2) with CUDA events,
// 40 launches after 4 warm-up ones; prints µs a call and GB/s of (read + written) bytes.
//   Usage: rw_mix [M, default 4096] [K, default 7168]
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "blockfp8/blockfp8.h"
#include "probe_check.h"

namespace {

constexpr int kThreads = 256, kWarps = kThreads / 32, kU = 4;
enum Mode { kRead, kWrite, kCopy };

// One item a warp: row `item / chunks`, groups [first, first + 2U) of it, as the quantiser walks them.
template <int kMode>
__global__ void __launch_bounds__(kThreads) rw_kernel(const __nv_bfloat16* x, uint8_t* xq, float* scales, int64_t k,
                                                     int64_t items, int64_t chunks, int kblocks, unsigned* sink) {
  const int lane = threadIdx.x & 31, half = lane >> 4, sub = lane & 15;
  const int64_t item = int64_t(blockIdx.x) * kWarps + (threadIdx.x >> 5);
  if (item >= items) return;
  const int64_t row = item / chunks;
  const int first = int(item - row * chunks) * (2 * kU);
  uint4 v[kU];
#pragma unroll
  for (int u = 0; u < kU; ++u) {
    const int kb = first + 2 * u + half;
    v[u] = make_uint4(kb, u, lane, 0);
    if (kMode != kWrite && kb < kblocks)
      v[u] = __ldg(reinterpret_cast<const uint4*>(x + row * k + int64_t(kb) * 128 + sub * 8));
  }
  unsigned check = 0;
#pragma unroll
  for (int u = 0; u < kU; ++u) {
    const int kb = first + 2 * u + half;
    if (kb >= kblocks) continue;
    // The low byte of each bf16: 8 bytes from 16, as the quantiser packs 8 e4m3 from 8 values.
    const uint32_t lo = __byte_perm(v[u].x, v[u].y, 0x6420), hi = __byte_perm(v[u].z, v[u].w, 0x6420);
    if (kMode == kRead) {
      check ^= lo ^ hi;
    } else {
      *reinterpret_cast<uint2*>(xq + row * k + int64_t(kb) * 128 + sub * 8) = make_uint2(lo, hi);
      if (sub == 0) scales[row * kblocks + kb] = __uint_as_float(lo & 0x3f7fffffu);
    }
  }
  if (kMode == kRead && check == 0x9e3779b9u) atomicAdd(sink, 1u);  // never in practice: keeps the loads
}

template <int kMode>
void launch(const __nv_bfloat16* x, uint8_t* xq, float* s, int64_t m, int64_t k, unsigned* sink) {
  const int64_t kblocks = k / 128, chunks = (kblocks + 2 * kU - 1) / (2 * kU), items = m * chunks;
  rw_kernel<kMode><<<unsigned((items + kWarps - 1) / kWarps), kThreads>>>(x, xq, s, k, items, chunks, int(kblocks), sink);
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t m = argc > 1 ? std::atoll(argv[1]) : 4096, k = argc > 2 ? std::atoll(argv[2]) : 7168;
  if (k % 128 != 0 || m < 1) {
    std::fprintf(stderr, "K must be a multiple of 128\n");
    return 2;
  }
  constexpr int kCopies = 4, kWarm = 4, kTimed = 40;
  const size_t xb = size_t(m * k) * 2, qb = size_t(m * k), sb = size_t(m * (k / 128)) * 4;
  std::vector<__nv_bfloat16*> x(kCopies);
  std::vector<uint8_t*> xq(kCopies);
  std::vector<float*> s(kCopies);
  std::vector<uint16_t> host(size_t(m * k));
  uint64_t state = 0x243f6a8885a308d3ull;
  for (auto& h : host) {  // random finite bf16: sign, exponent 100-140, random mantissa
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const uint32_t r = uint32_t(state >> 33);
    h = uint16_t(((r & 1u) << 15) | ((100u + (r >> 1) % 41u) << 7) | ((r >> 8) & 0x7fu));
  }
  for (int c = 0; c < kCopies; ++c) {
    CUDA_CHECK(cudaMalloc(&x[c], xb));
    CUDA_CHECK(cudaMalloc(&xq[c], qb));
    CUDA_CHECK(cudaMalloc(&s[c], sb));
    CUDA_CHECK(cudaMemcpy(x[c], host.data(), xb, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(xq[c], 0x5a, qb));
  }
  unsigned* sink = nullptr;
  CUDA_CHECK(cudaMalloc(&sink, 4));
  cudaEvent_t t0, t1;
  CUDA_CHECK(cudaEventCreate(&t0));
  CUDA_CHECK(cudaEventCreate(&t1));
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# rw_mix on %s, M = %lld, K = %lld: %d copies of %.1f MB rotated\n", prop.name, (long long)m,
              (long long)k, kCopies, (xb + qb + sb) / 1e6);
  std::printf("| mode | µs a call | bytes (MB) | GB/s |\n|---|---:|---:|---:|\n");
  auto run = [&](const char* name, double bytes, auto&& call) {
    for (int i = 0; i < kWarm; ++i) call(i % kCopies);
    CUDA_CHECK(cudaEventRecord(t0));
    for (int i = 0; i < kTimed; ++i) call(i % kCopies);
    CUDA_CHECK(cudaEventRecord(t1));
    CUDA_CHECK(cudaEventSynchronize(t1));
    CUDA_CHECK(cudaGetLastError());
    float ms = 0.f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, t0, t1));
    const double us = 1e3 * ms / kTimed;
    std::printf("| %s | %.2f | %.1f | %.0f |\n", name, us, bytes / 1e6, bytes / (us * 1e-6) / 1e9);
  };
  for (int rep = 0; rep < 2; ++rep) {
    run("read", double(xb), [&](int c) { launch<kRead>(x[c], xq[c], s[c], m, k, sink); });
    run("write", double(qb + sb), [&](int c) { launch<kWrite>(x[c], xq[c], s[c], m, k, sink); });
    run("copy", double(xb + qb + sb), [&](int c) { launch<kCopy>(x[c], xq[c], s[c], m, k, sink); });
    run("quant", double(xb + qb + sb), [&](int c) {
      const blockfp8_status_t st = blockfp8_quantize_1x128(m, k, x[c], k, BLOCKFP8_DTYPE_BF16, xq[c], k, s[c], k / 128,
                                                           1, BLOCKFP8_SCALE_FP32, nullptr);
      if (st != BLOCKFP8_SUCCESS) {
        std::fprintf(stderr, "blockfp8_quantize_1x128: %s\n", blockfp8_status_string(st));
        std::exit(1);
      }
    });
  }
  return 0;
}
