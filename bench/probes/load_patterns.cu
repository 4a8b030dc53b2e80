// Probe: how fast can one CTA pull its slice of the weight out of HBM, by load mechanism?
// Every variant reads the weight the decode kernel reads for (N=2112, K=7168): a tile of rows and a
// 1/split slice of K per CTA, all requests in flight at once, nothing else. Timed cold (16 rotating
// weight copies in one CUDA graph), median of 25 replays. Not part of the library; its output is
// quoted in docs/decode-kernel-notes.md.
//   tma_2d     : one TMA box {128 B, 64 rows} per k-block (what the decode kernel issues)
//   tma_2d_r16 : one TMA box {128 B, 16 rows} per k-block: 132 tiles of 16 rows, so at split 1
//                every one of the 132 SMs streams an equal share of the weight (the 64-row tiles
//                give 33 tiles, which no split spreads evenly over 132 SMs but 4)
//   tma_4d     : one TMA box {128 B, 8 rows, k-blocks, 8 row-groups} for the whole slice (the box
//                is sized for the largest slice; a CTA with a shorter one receives, and waits for,
//                the whole box: a few k-blocks of its neighbour's slice, counted in "read")
//   bulk_row   : one 1-D cp.async.bulk per row of the slice (contiguous k-blocks of one row)
//   ldg        : 256 threads, 16-byte loads, 4 in flight each
//   floor      : grid-stride 16-byte loads over the whole weight (the benchmark's yardstick shape)
// One variant and split per process (`load_patterns tma_2d 3`), so that a fault in one cannot take
// the CUDA context of the others with it; no arguments lists the pairs tools/device_suite.sh runs.
// Each process times the floor too and prints: us per call, TB/s of weight, and time / floor.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/host_support.h"
#include "kernels/ptx.cuh"
#include "timing.h"

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

// `rows` rows of the weight per tile (the map's box is {128 B, rows}).
__global__ void tma_2d(const __grid_constant__ CUtensorMap map, int split, int rows, float* sink) {
  __shared__ uint64_t bar;
  uint8_t* sm = aligned_smem();
  const Slice s = slice_of(split);
  init_barrier(&bar);
  if (threadIdx.x == 0) {
    const uint64_t pol = l2_evict_first();
    const uint32_t box = uint32_t(rows) * 128;
    mbar_arrive_expect_tx(&bar, s.cnt * box);
    for (int i = 0; i < s.cnt; ++i) tma_load_2d(sm + i * box, &map, &bar, (s.kb0 + i) * 128, s.tile * rows, pol);
  }
  finish(&bar, sm, sink);
}

// `box_cnt`: the map's box depth in k-blocks. A TMA box always delivers (and completes on the
// barrier) its full size, in bounds or zero-filled, so the barrier must expect box_cnt k-blocks
// even when this CTA's slice is shorter: expecting only s.cnt let the barrier's phase complete
// early and the CTA exit with the copy still landing in its shared memory (the "unspecified launch
// failure" of the first H200 run, most likely).
__global__ void tma_4d(const __grid_constant__ CUtensorMap map, int split, int box_cnt, float* sink) {
  __shared__ uint64_t bar;
  uint8_t* sm = aligned_smem();
  const Slice s = slice_of(split);
  init_barrier(&bar);
  if (threadIdx.x == 0) {
    const uint64_t pol = l2_evict_first();
    mbar_arrive_expect_tx(&bar, uint32_t(box_cnt) * 8192);
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

// ---------------------------------------------------------------------------------------------
// Host side: one variant at one split per process.

struct Variant {
  const char* name;
  int rows;  // weight rows per CTA tile (0: the floor, which has no tiles)
  std::vector<int> splits;  // what the device suite runs
};
const Variant kVariants[] = {{"floor", 0, {1}},        {"tma_2d", 64, {3, 4, 7, 8}}, {"tma_2d_r16", 16, {1}},
                             {"tma_4d", 64, {3, 4, 7, 8}}, {"bulk_row", 64, {3, 4, 7, 8}}, {"ldg", 64, {3, 4, 7, 8}}};
constexpr int kMaxSmem = 227 * 1024 - 16;  // the opt-in limit, less the static barrier

int usage() {
  std::printf("# usage: load_patterns VARIANT SPLIT   (one pair per process)\n# the pairs the device suite runs:\n");
  for (const Variant& v : kVariants)
    for (int sp : v.splits) std::printf("%s %d\n", v.name, sp);
  return 0;
}

// The process's shared state: 16 weight copies, a sink, a stream, two events.
struct Probe {
  std::vector<uint8_t*> w = std::vector<uint8_t*>(COPIES);
  float* sink = nullptr;
  cudaStream_t st{};
  PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;

  Probe() {
    encode = blockfp8::detail::tensor_map_encoder();
    if (!encode) {
      std::printf("cuTensorMapEncodeTiled: not provided by the driver\n");
      std::exit(1);
    }
    for (auto& p : w) {
      CK(cudaMalloc(&p, size_t(N) * K));
      fill_random<<<1024, 256>>>(p, size_t(N) * K, uint32_t(&p - w.data()) + 1);
    }
    CK(cudaMalloc(&sink, 1 << 20));
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    CK(cudaDeviceSynchronize());
  }

  // Median us per call of body(copy) over the 16 copies, captured in one graph (the benchmark's
  // bench::time_graph, 25 replays).
  template <class Body>
  float time_graph(Body&& body) {
    std::vector<int> copies(COPIES);
    for (int c = 0; c < COPIES; ++c) copies[c] = c;
    const float us = float(bench::time_graph([&](int c, cudaStream_t) { body(c); }, copies, 25, st).median_us);
    CK(cudaGetLastError());
    return us;
  }

  float floor_us() {
    return time_graph([&](int c) {
      floor_kernel<<<132 * 8, 512, 0, st>>>(reinterpret_cast<const uint4*>(w[c]), size_t(N) * K / 16, sink);
    });
  }

  // A 2-D map {K, N} with box {128 B, rows}, or the 4-D view {128 B, 8 rows, KB, N / 8} with box
  // {128 B, 8, box_cnt, 8}; false if the driver refuses it.
  bool map_2d(CUtensorMap* m, const uint8_t* p, int rows) {
    const cuuint64_t d[2] = {K, N}, st2[1] = {K};
    const cuuint32_t b[2] = {128, cuuint32_t(rows)}, e[2] = {1, 1};
    return encode(m, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, const_cast<uint8_t*>(p), d, st2, b, e,
                  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
  }
  bool map_4d(CUtensorMap* m, const uint8_t* p, int box_cnt) {
    const cuuint64_t d[4] = {128, 8, KB, N / 8}, st4[3] = {K, 128, 8ull * K};
    const cuuint32_t b[4] = {128, 8, cuuint32_t(box_cnt), 8}, e[4] = {1, 1, 1, 1};
    return encode(m, CU_TENSOR_MAP_DATA_TYPE_UINT8, 4, const_cast<uint8_t*>(p), d, st4, b, e,
                  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
  }
};

// Times variant v at `split`; returns the process exit code (0 ok, 2 refused: bad pair, map, smem).
int run(const Variant& v, int split) {
  Probe p;
  const double bytes = double(N) * K;
  const float tf = p.floor_us();
  if (v.rows == 0) {
    std::printf("%-10s split -  %7.2f us  %5.2f TB/s\n", "floor", tf, bytes / tf / 1e6);
    return 0;
  }
  const int tiles = N / v.rows, cnt = (KB + split - 1) / split;  // cnt: the largest slice
  const int smem = 1024 + cnt * v.rows * 128;
  const int ctas = tiles * split;
  if (smem > kMaxSmem) {
    std::printf("%-10s split %d: skipped, a slice of %d k-blocks needs %d KB of shared memory\n", v.name, split,
                cnt, smem / 1024);
    return 2;
  }
  const std::string name = v.name;
  for (auto k : {(const void*)tma_2d, (const void*)tma_4d, (const void*)bulk_row})
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  std::vector<CUtensorMap> maps(COPIES);
  bool ok = true;
  if (name == "tma_2d" || name == "tma_2d_r16")
    for (int c = 0; c < COPIES; ++c) ok &= p.map_2d(&maps[c], p.w[c], v.rows);
  if (name == "tma_4d")
    for (int c = 0; c < COPIES; ++c) ok &= p.map_4d(&maps[c], p.w[c], cnt);
  if (!ok) {  // a map the driver refused is reported, never launched
    std::printf("%-10s split %d: tensor map encode failed\n", v.name, split);
    return 2;
  }
  double read = bytes;  // bytes moved: more than the weight only for tma_4d's whole boxes
  float t = 0.f;
  if (name == "tma_2d" || name == "tma_2d_r16") {
    t = p.time_graph([&](int c) { tma_2d<<<ctas, 128, smem, p.st>>>(maps[c], split, v.rows, p.sink); });
  } else if (name == "tma_4d") {
    read = double(ctas) * cnt * 8192;
    t = p.time_graph([&](int c) { tma_4d<<<ctas, 128, smem, p.st>>>(maps[c], split, cnt, p.sink); });
  } else if (name == "bulk_row") {
    t = p.time_graph([&](int c) { bulk_row<<<ctas, 128, smem, p.st>>>(p.w[c], split, p.sink); });
  } else {
    t = p.time_graph([&](int c) { ldg<<<ctas, 256, 0, p.st>>>(p.w[c], split, p.sink); });
  }
  CK(cudaDeviceSynchronize());
  std::printf("%-10s split %d  %4d CTAs x %2d k-blocks x %2d rows  %7.2f us  %5.2f TB/s  %5.2f x floor"
              "  (floor %.2f us, read x%.3f)\n",
              v.name, split, ctas, cnt, v.rows, t, bytes / t / 1e6, t / tf, tf, read / bytes);
  return 0;
}

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IONBF, 0);  // every line reaches the log even if the process dies
  if (argc != 3) return usage();
  const Variant* v = nullptr;
  for (const Variant& c : kVariants)
    if (std::strcmp(c.name, argv[1]) == 0) v = &c;
  const int split = std::atoi(argv[2]);
  if (!v || split < 1 || split > KB) {
    std::printf("unknown variant or split out of [1, %d]: %s %s\n", KB, argv[1], argv[2]);
    usage();
    return 2;
  }
  return run(*v, split);
}
