// Decode kernel (small M): swap-AB, split-K over a thread-block cluster.
//
// In decode M (tokens) is tiny and N x K (the weight) is large, so the GEMM is a stream of the weight
// from HBM. We compute Cᵀ = B·Aᵀ: 64 weight rows fill wgmma's M side, the tokens sit on its N side
// (8..128), so no tensor-core row is wasted on padding tokens. One CTA owns a 64-row weight tile, a
// token tile, and a 1/split slice of K; the `split` CTAs of one tile form a cluster and add their
// partial sums through distributed shared memory in a fixed order, so the result is bitwise
// deterministic and needs no workspace.
//
// CTA = 1 or 2 math warpgroups (wgmma + block-scale promotion + epilogue; with two, they take
// alternate k-blocks) and 1 producer warp (TMA for the A and B tiles), over a ring of `stages`
// shared-memory stages guarded by full/empty mbarriers. With the deepest ring that fits, a CTA of the primary
// decode shape has its whole K slice in flight at once.
#include <cuda.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <atomic>

#include "kernels/launch.h"
#include "kernels/ptx.cuh"
#include "kernels/store_out.cuh"

namespace blockfp8::detail {
namespace {

constexpr int kRows = kSwapabRowsPerTile;  // weight rows per CTA (wgmma M)
constexpr int kKBlockBytes = 128;  // one 128-wide k-block of fp8 = one 128-byte swizzle row
constexpr int kRedPitch = kSwapabRedPitch;

struct Params {
  int m, n, kb_total;
  int m_base;  // first token of this launch (launches are chunked when M needs > 65535 token tiles)
  const float* a_scale;
  int64_t sa_m, sa_k;
  const float* b_scale;
  int64_t sb_n, sb_k;
  void* c;
  int64_t ldc;
  int c_dtype;
  int split, stages;
};

// Shared-memory layout of one CTA, from a 1024-byte aligned base (128-byte swizzle atoms need it):
//   [stages x (A tile: TN x 128 B | B tile: 64 x 128 B)] [kb_slice x (TN a_scales, b_scale, pad)] [2 x stages mbarriers]
// The scales of the CTA's whole K slice are loaded once, up front, by the math warps (see
// load_scales). After the main loop the tile ring is reused as the reduction buffer [TN][kRedPitch].
template <int TN>
struct Layout {
  static constexpr int kATile = TN * kKBlockBytes;
  static constexpr int kBTile = kRows * kKBlockBytes;
  static constexpr int kStage = kATile + kBTile;
  static constexpr int kScalePitch = TN + 4;  // TN a_scales, then b_scale; 16-byte multiple
};

// One consumer warpgroup's share of the K slice: k-blocks wg, wg + W, wg + 2W, ... of this CTA.
// The wgmma of the next k-block is in flight while the previous one is promoted with its scales
// (two `part` accumulators, used in turn), so the tensor core never waits on the promotion.
template <int TN, int W>
struct ConsumerLoop {
  using L = Layout<TN>;
  const uint8_t* smem;
  const float* scales;
  uint64_t* full;
  uint64_t* empty;
  int stages, lane;

  __device__ __forceinline__ void issue(int i, float (&part)[TN / 2]) const {
    const int s = i % stages;
    ptx::mbar_wait(&full[s], (i / stages) & 1);
    const uint8_t* stage = smem + s * L::kStage;
    const uint64_t desc_w = ptx::wgmma_desc_k128_sw128(stage + L::kATile);  // weight rows: wgmma A
    const uint64_t desc_t = ptx::wgmma_desc_k128_sw128(stage);              // tokens: wgmma B
    ptx::wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < kKBlockBytes / 32; ++kk)
      ptx::WgmmaE4M3<TN>::mma(part, ptx::desc_advance(desc_w, kk * 32), ptx::desc_advance(desc_t, kk * 32), kk > 0);
    ptx::wgmma_commit();
    ptx::fence_regs(part);
  }

  // acc += part * a_scale[token] * b_scale, then hand the stage back to the producer. The thread
  // owns tokens 8j + 2*(lane%4) + {0,1}: wgmma's accumulator columns.
  __device__ __forceinline__ void promote(int i, float (&part)[TN / 2], float (&acc)[TN / 2]) const {
    const int s = i % stages;
    ptx::fence_regs(part);
    const float* sc = scales + i * L::kScalePitch;
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
    ptx::mbar_arrive(&empty[s]);
  }

  __device__ __forceinline__ void run(int wg, int kb_count, float (&acc)[TN / 2]) const {
    float part0[TN / 2];
    int i = wg;
    if constexpr (TN > kSwapabMaxPipelinedTokenTile) {
      // Three 64-register accumulator sets would spill: no overlap for the widest token tile.
      for (; i < kb_count; i += W) {
        issue(i, part0);
        ptx::wgmma_wait<0>();
        promote(i, part0, acc);
      }
      return;
    }
    float part1[TN / 2];
    if (i >= kb_count) return;
    issue(i, part0);
    while (true) {
      if (i + W < kb_count) {
        issue(i + W, part1);
        ptx::wgmma_wait<1>();
        promote(i, part0, acc);
      } else {
        ptx::wgmma_wait<0>();
        promote(i, part0, acc);
        return;
      }
      i += W;
      if (i + W < kb_count) {
        issue(i + W, part0);
        ptx::wgmma_wait<1>();
        promote(i, part1, acc);
      } else {
        ptx::wgmma_wait<0>();
        promote(i, part1, acc);
        return;
      }
      i += W;
    }
  }
};

// The a_scale of every token of the tile and the b_scale of the tile, for each k-block of the CTA's
// K slice, into shared memory: one round of independent loads spread over the math threads, issued
// while the first TMA loads are in flight. (Fetching them per stage with 4-byte cp.async cost
// 3.4 us of 11.9 at N=2112, K=7168, M=1: see docs/decode-kernel-notes.md.)
template <int TN>
__device__ __forceinline__ void load_scales(float* scales, const Params& p, int m0, int n0, int kb_begin,
                                            int kb_count, int thread, int threads) {
  constexpr int kPerKBlock = TN + 1;
  constexpr int kBatch = 8;  // loads in flight per thread before the first store: rounds of latency, not loads
  const int total = kb_count * kPerKBlock;
  const bool k_fastest = p.sa_k == 1;  // row-major a_scale: consecutive k-blocks are adjacent
  const float* b_row = p.b_scale + (n0 / 128) * p.sb_n;
  for (int base = thread; base < total; base += kBatch * threads) {
    float v[kBatch];
    int slot[kBatch];
#pragma unroll
    for (int u = 0; u < kBatch; ++u) {
      const int idx = base + u * threads;
      const int j = k_fastest ? idx % kb_count : idx / kPerKBlock;
      const int t = k_fastest ? idx / kb_count : idx % kPerKBlock;
      const int kb = kb_begin + j;
      const int m = m0 + t;
      slot[u] = idx < total ? j * Layout<TN>::kScalePitch + t : -1;
      v[u] = 0.f;  // tokens past M scale to 0
      if (idx >= total) continue;
      if (t == TN) v[u] = __ldg(b_row + kb * p.sb_k);
      else if (m < p.m) v[u] = __ldg(p.a_scale + int64_t(m) * p.sa_m + int64_t(kb) * p.sa_k);
    }
#pragma unroll
    for (int u = 0; u < kBatch; ++u)
      if (slot[u] >= 0) scales[slot[u]] = v[u];
  }
}

template <int TN, int W>
__global__ void __launch_bounds__(128 * W + 32, 1)
    swapab_splitk_kernel(const __grid_constant__ CUtensorMap tmap_a, const __grid_constant__ CUtensorMap tmap_b,
                         const Params p) {
  using L = Layout<TN>;
  constexpr int kConsumers = 128 * W;
  extern __shared__ uint8_t smem_raw[];
  uint8_t* smem = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~uintptr_t(1023));
  const int stages = p.stages;
  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int rank = blockIdx.x % p.split;  // == %cluster_ctarank: the cluster spans consecutive x
  const int n0 = (blockIdx.x / p.split) * kRows;
  const int m0 = p.m_base + blockIdx.y * TN;
  const int kb_begin = rank * p.kb_total / p.split;
  const int kb_count = (rank + 1) * p.kb_total / p.split - kb_begin;
  const int kb_slice = (p.kb_total + p.split - 1) / p.split;  // the longest K slice of any rank
  float* scales = reinterpret_cast<float*>(smem + stages * L::kStage);
  uint64_t* full = reinterpret_cast<uint64_t*>(scales + kb_slice * L::kScalePitch);
  uint64_t* empty = full + stages;

  if (tid == 0) {
    for (int s = 0; s < stages; ++s) {
      ptx::mbar_init(&full[s], 1);     // the producer's arrive.expect_tx; the TMA bytes do the rest
      ptx::mbar_init(&empty[s], 128);  // every thread of the consuming warpgroup
    }
    ptx::fence_barrier_init();
  }
  __syncthreads();

  float acc[TN / 2];
#pragma unroll
  for (int i = 0; i < TN / 2; ++i) acc[i] = 0.f;

  if (warp == kConsumers / 32) {
    // ---------------- producer warp ----------------
    if (lane == 0) {
      ptx::prefetch_tensormap(&tmap_a);
      ptx::prefetch_tensormap(&tmap_b);
    }
    const uint64_t weight_policy = ptx::l2_evict_first();
    const uint64_t act_policy = ptx::l2_evict_last();
    for (int i = 0; i < kb_count; ++i) {
      const int s = i % stages;
      const int kb = kb_begin + i;
      if (i >= stages) ptx::mbar_wait(&empty[s], ((i / stages) - 1) & 1);
      uint8_t* stage = smem + s * L::kStage;
      if (lane == 0) {
        ptx::mbar_arrive_expect_tx(&full[s], L::kStage);
        ptx::tma_load_2d(stage + L::kATile, &tmap_b, &full[s], kb * kKBlockBytes, n0, weight_policy);
        ptx::tma_load_2d(stage, &tmap_a, &full[s], kb * kKBlockBytes, m0, act_policy);
      }
    }
  } else {
    // ---------------- consumer warpgroups ----------------
    load_scales<TN>(scales, p, m0, n0, kb_begin, kb_count, tid, kConsumers);
    ptx::named_barrier(2, kConsumers);
    const ConsumerLoop<TN, W> loop{smem, scales, full, empty, stages, lane};
    loop.run(tid / 128, kb_count, acc);
  }

  // Park the CTA's partial tile, token-major, in the idle stage ring: red[token][row] (the
  // dispatcher guarantees the ring holds it). Warpgroup 0 stores, then warpgroup 1 adds, so the
  // in-CTA sum has a fixed order.
  float* red = reinterpret_cast<float*>(smem);
  const int row = 16 * (warp % 4) + lane / 4;
#pragma unroll
  for (int w = 0; w < W; ++w) {
    if (tid < kConsumers) ptx::named_barrier(1, kConsumers);
    if (tid / 128 == w && tid < kConsumers) {
#pragma unroll
      for (int j = 0; j < TN / 8; ++j) {
        const int t = 8 * j + 2 * (lane % 4);
        float* r0 = &red[t * kRedPitch + row];
        float* r1 = &red[(t + 1) * kRedPitch + row];
        r0[0] = (w ? r0[0] : 0.f) + acc[4 * j + 0];
        r1[0] = (w ? r1[0] : 0.f) + acc[4 * j + 1];
        r0[8] = (w ? r0[8] : 0.f) + acc[4 * j + 2];
        r1[8] = (w ? r1[8] : 0.f) + acc[4 * j + 3];
      }
    }
  }

  // Every CTA of the cluster has parked its partial tile; rank r sums its share of the tile over
  // ranks 0..split-1 in that order (deterministic) and writes it to C.
  ptx::cluster_sync();
  {
    constexpr int kQuads = TN * kRows / 4;  // float4s in a [TN][kRows] tile
    const int q_begin = rank * kQuads / p.split;
    const int q_end = (rank + 1) * kQuads / p.split;
    for (int q = q_begin + tid; q < q_end; q += blockDim.x) {
      const int t = q / (kRows / 4);
      const int r = (q % (kRows / 4)) * 4;
      const float* src = red + t * kRedPitch + r;
      float4 sum = ptx::ld_cluster_f4(ptx::map_to_rank(src, 0));
      for (int other = 1; other < p.split; ++other) {
        const float4 v = ptx::ld_cluster_f4(ptx::map_to_rank(src, other));
        sum.x += v.x, sum.y += v.y, sum.z += v.z, sum.w += v.w;
      }
      const int m = m0 + t;
      const int n = n0 + r;
      if (m < p.m) {
        const int64_t base = int64_t(m) * p.ldc + n;
        const float vals[4] = {sum.x, sum.y, sum.z, sum.w};
#pragma unroll
        for (int e = 0; e < 4; ++e)
          if (n + e < p.n) store_out(p.c, base + e, vals[e], p.c_dtype);
      }
    }
  }
  ptx::cluster_sync();  // keep this CTA's shared memory alive until every rank has read it
}

// ------------------------------------------------------------------------------------------------
// Host side.

PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* ptr = nullptr;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &ptr, 12000, cudaEnableDefault, &q) !=
            cudaSuccess ||
        q != cudaDriverEntryPointSuccess)
      ptr = nullptr;
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(ptr);
  }();
  return fn;
}

// A row-major [rows][ld] fp8 matrix read as [box_rows][128] tiles with 128-byte swizzle;
// rows past the end read as zeros.
bool encode_tile_map(CUtensorMap* map, const void* base, int64_t rows, int64_t cols, int64_t ld, int box_rows) {
  auto encode = tensor_map_encoder();
  if (!encode) return false;
  const cuuint64_t dims[2] = {cuuint64_t(cols), cuuint64_t(rows)};
  const cuuint64_t strides[1] = {cuuint64_t(ld)};
  const cuuint32_t box[2] = {kKBlockBytes, cuuint32_t(box_rows)};
  const cuuint32_t elem_strides[2] = {1, 1};
  return encode(map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, const_cast<void*>(base), dims, strides, box, elem_strides,
                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

// Encoding a tensor map is a driver call that costs about as much host time as the launch itself.
// A serving engine calls each layer with the same weight (and, from its caching allocator, often
// the same activation buffer) every step, so each host thread keeps its last few maps.
bool make_tile_map(CUtensorMap* map, const void* base, int64_t rows, int64_t cols, int64_t ld, int box_rows) {
  struct Entry {
    const void* base;
    int64_t rows, cols, ld;
    int box_rows;
    CUtensorMap map;
  };
  constexpr int kEntries = 8;
  thread_local Entry cache[kEntries] = {};
  thread_local int next = 0;
  for (const Entry& e : cache) {
    if (e.base == base && e.rows == rows && e.cols == cols && e.ld == ld && e.box_rows == box_rows) {
      *map = e.map;
      return true;
    }
  }
  if (!encode_tile_map(map, base, rows, cols, ld, box_rows)) return false;
  cache[next] = Entry{base, rows, cols, ld, box_rows, *map};
  next = (next + 1) % kEntries;
  return true;
}

template <int TN, int W>
cudaError_t prepare(int smem_bytes) {
  // Raise the kernel's dynamic shared-memory limit once per device to the most any config uses.
  constexpr int kMaxDevices = 64;
  static std::atomic<int> raised[kMaxDevices];
  int dev = 0;
  cudaError_t err = cudaGetDevice(&dev);
  if (err != cudaSuccess) return err;
  if (dev < kMaxDevices && raised[dev].load(std::memory_order_acquire) >= smem_bytes) return cudaSuccess;
  int optin = 0;
  err = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  if (err != cudaSuccess) return err;
  err = cudaFuncSetAttribute(swapab_splitk_kernel<TN, W>, cudaFuncAttributeMaxDynamicSharedMemorySize, optin);
  if (err == cudaSuccess && dev < kMaxDevices) raised[dev].store(optin, std::memory_order_release);
  return err;
}

template <int TN, int W>
blockfp8_status_t launch(const Problem& p, const blockfp8_config_t& cfg, cudaStream_t stream) {
  const int smem = swapab_smem_bytes(TN, cfg.stages, swapab_kb_slice(p.k / 128, cfg.split_k));
  if (prepare<TN, W>(smem) != cudaSuccess) return BLOCKFP8_ERROR_CUDA;

  CUtensorMap map_a, map_b;
  if (!make_tile_map(&map_a, p.a, p.m, p.k, p.lda, TN) || !make_tile_map(&map_b, p.b, p.n, p.k, p.ldb, kRows))
    return BLOCKFP8_ERROR_CUDA;

  Params prm{};
  prm.m = int(p.m), prm.n = int(p.n), prm.kb_total = int(p.k_blocks());
  prm.a_scale = p.a_scale, prm.sa_m = p.a_scale_stride_m, prm.sa_k = p.a_scale_stride_k;
  prm.b_scale = p.b_scale, prm.sb_n = p.b_scale_stride_n, prm.sb_k = p.b_scale_stride_k;
  prm.c = p.c, prm.ldc = p.ldc, prm.c_dtype = p.c_dtype;
  prm.split = cfg.split_k, prm.stages = cfg.stages;

  const int64_t n_tiles = (p.n + kRows - 1) / kRows;
  const int64_t m_tiles = (p.m + TN - 1) / TN;
  constexpr int64_t kMaxGridY = 65535;

  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = cfg.split_k;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cudaLaunchConfig_t lc{};
  lc.blockDim = dim3(128 * W + 32);
  lc.dynamicSmemBytes = smem;
  lc.stream = stream;
  lc.attrs = attr;
  lc.numAttrs = 1;
  for (int64_t y0 = 0; y0 < m_tiles; y0 += kMaxGridY) {
    prm.m_base = int(y0 * TN);
    lc.gridDim = dim3(unsigned(n_tiles * cfg.split_k), unsigned(std::min(kMaxGridY, m_tiles - y0)));
    if (cudaLaunchKernelEx(&lc, swapab_splitk_kernel<TN, W>, map_a, map_b, prm) != cudaSuccess)
      return BLOCKFP8_ERROR_CUDA;
  }
  return BLOCKFP8_SUCCESS;
}

}  // namespace

template <int TN>
blockfp8_status_t launch_tn(const Problem& p, const blockfp8_config_t& cfg, cudaStream_t stream) {
  if constexpr (TN <= kSwapabMaxTokenTileFor2Warpgroups) {
    if (cfg.warpgroups == 2) return launch<TN, 2>(p, cfg, stream);
  }
  return launch<TN, 1>(p, cfg, stream);
}

blockfp8_status_t launch_swapab_splitk(const Problem& p, const blockfp8_config_t& cfg, cudaStream_t stream) {
  switch (cfg.token_tile) {
    case 8: return launch_tn<8>(p, cfg, stream);
    case 16: return launch_tn<16>(p, cfg, stream);
    case 32: return launch_tn<32>(p, cfg, stream);
    case 64: return launch_tn<64>(p, cfg, stream);
    case 128: return launch_tn<128>(p, cfg, stream);
    default: return BLOCKFP8_ERROR_INVALID_CONFIG;
  }
}

int swapab_max_active_clusters(int split, int smem_bytes) {
  if (prepare<8, 1>(smem_bytes) != cudaSuccess) return 0;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = split;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cudaLaunchConfig_t lc{};
  lc.gridDim = dim3(split * 256);
  lc.blockDim = dim3(128 + 32);
  lc.dynamicSmemBytes = smem_bytes;
  lc.attrs = attr;
  lc.numAttrs = 1;
  int clusters = 0;
  if (cudaOccupancyMaxActiveClusters(&clusters, swapab_splitk_kernel<8, 1>, &lc) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return clusters;
}

}  // namespace blockfp8::detail
