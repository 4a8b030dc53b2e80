// Probe: how fast can one CTA pull its slice of the weight out of HBM, by load mechanism?
// Every variant reads the same bytes the decode kernel reads for (N=2112, K=7168): a 64-row tile
// and a 1/split slice of K per CTA, all requests in flight at once, nothing else. Timed cold
// (16 rotating weight copies in one CUDA graph), median of 25 replays. Not part of the library;
// its output is quoted in docs/decode-kernel-notes.md.
//   tma_2d   : one TMA box {128 B, 64 rows} per k-block (what the decode kernel issues)
//   tma_4d   : one TMA box {128 B, 8 rows, k-blocks, 8 row-groups} for the whole slice
//   bulk_row : one 1-D cp.async.bulk per row of the slice (contiguous k-blocks of one row)
//   ldg      : 256 threads, 16-byte loads, 4 in flight each
//   floor    : grid-stride 16-byte loads over the whole weight (the benchmark's yardstick shape)
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kernels/ptx.cuh"

using namespace blockfp8::ptx;

#define CK(x)                                                                          \
  do {                                                                                 \
    cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) {                                                           \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

constexpr int N = 2112, K = 7168, KB = K / 128, COPIES = 16;

__device__ __forceinline__ void bulk_load(void* dst, const void* src, uint32_t bytes, uint64_t* bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   smem_addr(dst)),
               "l"(src), "r"(bytes), "r"(smem_addr(bar))
               : "memory");
}

// A probe must never hang the device: give up (and trap, so the launch reports an error) after
// ~0.5 s of polling instead of waiting forever on a TMA that was never going to land.
__device__ __forceinline__ void wait_or_trap(uint64_t* bar) {
  const long long t0 = clock64();
  uint32_t done = 0;
  while (!done) {
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\nselp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(smem_addr(bar))
        : "memory");
    if (!done && clock64() - t0 > (1ll << 30)) __trap();
  }
}

// One transaction barrier for the whole slice, visible to the copy engine before anyone uses it.
__device__ __forceinline__ void init_barrier(uint64_t* bar) {
  if (threadIdx.x == 0) {
    mbar_init(bar, 1);
    fence_barrier_init();
  }
  __syncthreads();
}

// Wait for the slice, then touch one byte so the load cannot be optimised away.
__device__ __forceinline__ void finish(uint64_t* bar, const uint8_t* sm, float* sink) {
  wait_or_trap(bar);
  if (threadIdx.x == 0 && sm[5] == 0x7f) sink[blockIdx.x] = 1.f;
}

struct Slice {
  int tile, kb0, cnt;
};
__device__ __forceinline__ Slice slice_of(int split) {
  const int tile = blockIdx.x / split, rank = blockIdx.x % split;
  const int kb0 = rank * KB / split;
  return {tile, kb0, (rank + 1) * KB / split - kb0};
}
__device__ __forceinline__ uint8_t* aligned_smem() {
  extern __shared__ uint8_t raw[];
  return reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(raw) + 1023) & ~uintptr_t(1023));
}

__global__ void tma_2d(const __grid_constant__ CUtensorMap map, int split, float* sink) {
  __shared__ uint64_t bar;
  uint8_t* sm = aligned_smem();
  const Slice s = slice_of(split);
  init_barrier(&bar);
  if (threadIdx.x == 0) {
    const uint64_t pol = l2_evict_first();
    mbar_arrive_expect_tx(&bar, s.cnt * 8192);
    for (int i = 0; i < s.cnt; ++i) tma_load_2d(sm + i * 8192, &map, &bar, (s.kb0 + i) * 128, s.tile * 64, pol);
  }
  finish(&bar, sm, sink);
}

__global__ void tma_4d(const __grid_constant__ CUtensorMap map, int split, float* sink) {
  __shared__ uint64_t bar;
  uint8_t* sm = aligned_smem();
  const Slice s = slice_of(split);
  init_barrier(&bar);
  if (threadIdx.x == 0) {
    const uint64_t pol = l2_evict_first();
    mbar_arrive_expect_tx(&bar, s.cnt * 8192);
    asm volatile(
        "cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
        " [%0], [%1, {%3, %4, %5, %6}], [%2], %7;" ::"r"(smem_addr(sm)),
        "l"(&map), "r"(smem_addr(&bar)), "r"(0), "r"(0), "r"(s.kb0), "r"(s.tile * 8), "l"(pol)
        : "memory");
  }
  finish(&bar, sm, sink);
}

__global__ void bulk_row(const uint8_t* w, int split, float* sink) {
  __shared__ uint64_t bar;
  uint8_t* sm = aligned_smem();
  const Slice s = slice_of(split);
  init_barrier(&bar);
  const uint32_t bytes = s.cnt * 128;
  if (threadIdx.x == 0) mbar_arrive_expect_tx(&bar, 64 * bytes);
  __syncwarp();
  if (threadIdx.x < 32)
    for (int r = threadIdx.x; r < 64; r += 32)
      bulk_load(sm + r * bytes, w + size_t(s.tile * 64 + r) * K + s.kb0 * 128, bytes, &bar);
  finish(&bar, sm, sink);
}

__global__ void ldg(const uint8_t* w, int split, float* sink) {
  const Slice s = slice_of(split);
  const int per_row = s.cnt * 8;  // 16-byte chunks per row
  const int total = 64 * per_row;
  uint32_t acc = 0;
  for (int c = threadIdx.x; c < total; c += 4 * blockDim.x) {
    uint4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      const int cc = min(c + u * int(blockDim.x), total - 1);
      const int r = cc / per_row, col = cc % per_row;
      v[u] = __ldcs(reinterpret_cast<const uint4*>(w + size_t(s.tile * 64 + r) * K + s.kb0 * 128) + col);
    }
#pragma unroll
    for (int u = 0; u < 4; ++u) acc ^= v[u].x ^ v[u].w;
  }
  if (acc == 0x12345678u) sink[blockIdx.x] = 1.f;
}

__global__ void fill_random(uint8_t* p, size_t n, uint32_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    uint32_t h = uint32_t(i) * 2654435761u ^ seed;
    h ^= h >> 15, h *= 2246822519u, h ^= h >> 13;
    p[i] = uint8_t(h) & 0x7f ? uint8_t(h) : 0x21;  // random bytes, never the NaN codes 0x7f/0xff
  }
}

__global__ void floor_kernel(const uint4* __restrict__ p, size_t n16, float* sink) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  uint32_t acc = 0;
  for (; i + 3 * stride < n16; i += 4 * stride) {
    const uint4 a = __ldcs(p + i), b = __ldcs(p + i + stride), c = __ldcs(p + i + 2 * stride),
                d = __ldcs(p + i + 3 * stride);
    acc ^= a.x ^ b.y ^ c.z ^ d.w;
  }
  for (; i < n16; i += stride) acc ^= __ldcs(p + i).x;
  if (acc == 0x12345678u) sink[threadIdx.x] = 1.f;
}

int main() {
  std::setvbuf(stdout, nullptr, _IONBF, 0);  // every line reaches the log even if a variant fails
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
  auto encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);

  std::vector<uint8_t*> w(COPIES);
  for (auto& p : w) {
    CK(cudaMalloc(&p, size_t(N) * K));
    fill_random<<<1024, 256>>>(p, size_t(N) * K, uint32_t(&p - w.data()) + 1);
  }
  float* sink;
  CK(cudaMalloc(&sink, 1 << 20));
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (auto k : {(const void*)tma_2d, (const void*)tma_4d, (const void*)bulk_row})
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));

  auto time_graph = [&](auto&& body) {
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
    for (int c = 0; c < COPIES; ++c) body(c);
    CK(cudaStreamEndCapture(st, &g));
    CK(cudaGraphInstantiate(&ge, g, 0));
    for (int i = 0; i < 3; ++i) CK(cudaGraphLaunch(ge, st));
    std::vector<float> v;
    for (int r = 0; r < 25; ++r) {
      CK(cudaEventRecord(e0, st));
      CK(cudaGraphLaunch(ge, st));
      CK(cudaEventRecord(e1, st));
      CK(cudaEventSynchronize(e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      v.push_back(ms * 1000.f / COPIES);
    }
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };

  const double bytes = double(N) * K;
  const float tf = time_graph([&](int c) {
    floor_kernel<<<132 * 8, 512, 0, st>>>(reinterpret_cast<const uint4*>(w[c]), size_t(N) * K / 16, sink);
  });
  std::printf("%-9s split -  %7.2f us  %5.2f TB/s\n", "floor", tf, bytes / tf / 1e6);
  for (int split : {3, 4, 7, 8}) {
    const int tiles = N / 64, cnt = (KB + split - 1) / split;
    const int smem = 1024 + cnt * 8192;
    std::vector<CUtensorMap> m2(COPIES), m4(COPIES);
    bool ok2 = true, ok4 = true;
    for (int c = 0; c < COPIES; ++c) {
      const cuuint64_t d2[2] = {K, N}, s2[1] = {K};
      const cuuint32_t b2[2] = {128, 64}, e2[2] = {1, 1};
      ok2 &= encode(&m2[c], CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, w[c], d2, s2, b2, e2, CU_TENSOR_MAP_INTERLEAVE_NONE,
                    CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
      const cuuint64_t d4[4] = {128, 8, KB, N / 8}, s4[3] = {K, 128, 8ull * K};
      const cuuint32_t b4[4] = {128, 8, cuuint32_t(cnt), 8}, e4[4] = {1, 1, 1, 1};
      ok4 &= encode(&m4[c], CU_TENSOR_MAP_DATA_TYPE_UINT8, 4, w[c], d4, s4, b4, e4, CU_TENSOR_MAP_INTERLEAVE_NONE,
                    CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
    }
    const dim3 grid(tiles * split);
    // A map the driver refused is reported and its variant skipped (-1), never launched.
    if (!ok2 || !ok4) std::printf("split %d: tensor map encode failed (2d ok=%d, 4d ok=%d)\n", split, ok2, ok4);
    const float t2 = ok2 ? time_graph([&](int c) { tma_2d<<<grid, 128, smem, st>>>(m2[c], split, sink); }) : -1.f;
    const float t4 = ok4 ? time_graph([&](int c) { tma_4d<<<grid, 128, smem, st>>>(m4[c], split, sink); }) : -1.f;
    const float tb = time_graph([&](int c) { bulk_row<<<grid, 128, smem, st>>>(w[c], split, sink); });
    const float tl = time_graph([&](int c) { ldg<<<grid, 256, 0, st>>>(w[c], split, sink); });
    CK(cudaGetLastError());
    std::printf("split %d (%d CTAs, %d k-blocks each): tma_2d %6.2f  tma_4d %6.2f  bulk_row %6.2f  ldg %6.2f us"
                "  (x floor: %.2f %.2f %.2f %.2f)\n",
                split, tiles * split, cnt, t2, t4, tb, tl, t2 / tf, t4 / tf, tb / tf, tl / tf);
  }
  CK(cudaDeviceSynchronize());
  return 0;
}
