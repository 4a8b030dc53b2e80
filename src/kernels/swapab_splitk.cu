// Decode kernel (small M): swap-AB, split-K over a thread-block cluster, persistent.
//
// In decode M (tokens) is tiny and N x K (the weight) is large, so the GEMM is a stream of the weight
// from HBM, and it reaches HBM speed only when (nearly) every SM streams. We compute Cᵀ = B·Aᵀ:
// weight rows fill wgmma's M side (64), the tokens sit on its N side (8..128). A tile is `rows`
// weight rows (16, 32 or 64; wgmma still computes 64, the rows past the tile are never stored) x a
// token tile; each of the `split` CTAs of a cluster takes 1/split of K, and the cluster adds its
// partial sums through distributed shared memory in rank order, so the result is bitwise
// deterministic and needs no workspace. Shorter tiles spread a small weight over more SMs, but a
// k-block's math costs about the same at any height (docs/decode-kernel-notes.md), so the
// dispatcher takes them only where 64-row tiles would leave too many SMs idle.
//
// The grid is as many clusters as the device holds at once; each walks tiles `clusters` apart, and
// the producer streams the next tile's k-blocks while the math warps reduce the current one, so the
// pipeline never drains between tiles.
//
// CTA = 1 or 2 math warpgroups (wgmma + block-scale promotion + epilogue; with two, they take
// alternate stages) and 1 producer warp, over a ring of `stages` shared-memory stages guarded by
// full/empty mbarriers. A stage is `kblocks` consecutive k-blocks (one 2-D TMA box each for weight
// and tokens when kblocks is 1, a 3-D box otherwise), which saves barrier hand-offs for short tiles.
#include <cuda.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <atomic>

#include "kernels/launch.h"
#include "kernels/ptx.cuh"
#include "kernels/host_support.h"
#include "kernels/store_out.cuh"

namespace blockfp8::detail {
namespace {

constexpr int kKBlockBytes = 128;  // one 128-wide k-block of fp8 = one 128-byte swizzle row
constexpr int kRedPitch = kSwapabRedPitch;

struct Params {
  int m, n, kb_total;
  int rows;            // weight rows per tile: 16, 32 or 64
  int tiles_n;         // tiles along N; tile t covers rows (t % tiles_n) * rows, tokens (t / tiles_n) * TN
  int64_t tiles;       // tiles_n x token tiles
  const float* a_scale;
  int64_t sa_m, sa_k;
  const float* b_scale;
  int64_t sb_n, sb_k;
  void* c;
  int64_t ldc;
  int c_dtype;
  int split, stages;
  int kblocks;  // k-blocks per stage
};

// Shared-memory layout of one CTA, from a 1024-byte aligned base (128-byte swizzle atoms need it):
//   [stages x (kblocks x A tile: TN x 128 B | kblocks x B tile: rows x 128 B)]
//   [2 x reduction buffer [TN][kRedPitch] fp32] [2 x scales: kb_slice x (TN a_scales, b_scale, pad)]
//   [2 x stages mbarriers]
// Reduction buffers and scales alternate between consecutive tiles of the CTA, so the next tile's
// scales load and the current tile's partial sums are read by the other ranks at the same time.
template <int TN>
struct Layout {
  static constexpr int kATile = TN * kKBlockBytes;
  static constexpr int kScalePitch = TN + 4;  // TN a_scales, then b_scale; 16-byte multiple
  static constexpr int kRedFloats = TN * kRedPitch;
};

// A position in the ring: slot and phase advance by counting, never by dividing (a runtime integer
// division is ~25 dependent instructions; at three or four per k-block they cost more than the
// k-block's wgmma).
struct RingPos {
  int slot;
  uint32_t phase;
  __device__ __forceinline__ void advance(int by, int stages) {
    slot += by;
    if (slot >= stages) slot -= stages, phase ^= 1;  // by <= stages
  }
  __device__ __forceinline__ void advance_far(int by, int stages) {  // any by; once per tile
    slot += by;
    while (slot >= stages) slot -= stages, phase ^= 1;
  }
};

// One consumer warpgroup's share of a tile's K slice: stages wg, wg + W, wg + 2W, ... of it, every
// k-block of each. The wgmma of the next k-block is in flight while the previous one is promoted
// with its scales (two `part` accumulators, used in turn), so the tensor core never waits on the
// promotion. The CTA's stages are numbered across its tiles: stage q of its j-th tile is ring
// position j * stages_per_tile + q.
template <int TN, int W>
struct ConsumerLoop {
  using L = Layout<TN>;
  // Few members, everything else derived where used: at 64 tokens and two warpgroups the loop sits
  // at the 168-register cap of a 288-thread CTA, and every live value more spilled.
  const uint8_t* smem;
  const float* scales;
  uint64_t* full;  // `stages` full barriers, then `stages` empty ones
  int stages, kblocks, kb_count, rows;

  // Where the warpgroup is: k-block i of the tile, the q-th of its stage, at ring position pos.
  struct Step {
    int i, q;
    RingPos pos;
  };
  // Whether k-block i (the q-th of its stage) is its stage's last: stages are kblocks long, except
  // where the K slice ends.
  __device__ __forceinline__ bool last_of_stage(const Step& st) const {
    return st.q + 1 == kblocks || st.i + 1 == kb_count;
  }

  __device__ __forceinline__ Step first(int wg, RingPos pos) const {
    pos.advance(wg, stages);
    return {wg * kblocks, 0, pos};
  }
  __device__ __forceinline__ Step next(Step st) const {
    if (!last_of_stage(st)) return {st.i + 1, st.q + 1, st.pos};
    st.pos.advance(W, stages);
    return {st.i - st.q + W * kblocks, 0, st.pos};
  }
  __device__ __forceinline__ bool valid(const Step& st) const { return st.i < kb_count; }

  __device__ __forceinline__ void issue(const Step& st, float (&part)[TN / 2]) const {
    if (st.q == 0) ptx::mbar_wait(&full[st.pos.slot], st.pos.phase);
    const uint8_t* stage = smem + st.pos.slot * kblocks * (L::kATile + rows * kKBlockBytes);
    const uint8_t* tokens = stage + st.q * L::kATile;
    const uint8_t* weight = stage + kblocks * L::kATile + st.q * rows * kKBlockBytes;
    const uint64_t desc_w = ptx::wgmma_desc_k128_sw128(weight);  // weight rows: wgmma A
    const uint64_t desc_t = ptx::wgmma_desc_k128_sw128(tokens);  // tokens: wgmma B
    ptx::wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < kKBlockBytes / 32; ++kk)
      ptx::WgmmaE4M3<TN>::mma(part, ptx::desc_advance(desc_w, kk * 32), ptx::desc_advance(desc_t, kk * 32), kk > 0);
    ptx::wgmma_commit();
    ptx::fence_regs(part);
  }

  // acc += part * a_scale[token] * b_scale; after a stage's last k-block, hand the stage back to the
  // producer. The thread owns tokens 8j + 2*(lane%4) + {0,1}: wgmma's accumulator columns.
  __device__ __forceinline__ void promote(const Step& st, float (&part)[TN / 2], float (&acc)[TN / 2]) const {
    ptx::fence_regs(part);
    const int lane = threadIdx.x % 32;
    const float* sc = scales + st.i * L::kScalePitch;
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
    if (last_of_stage(st)) ptx::mbar_arrive(&full[stages + st.pos.slot]);  // the slot's empty barrier
  }

  __device__ __forceinline__ void run(int wg, RingPos tile_start, float (&acc)[TN / 2]) const {
    float part0[TN / 2];
    Step cur = first(wg, tile_start);
    if constexpr (TN > kSwapabMaxPipelinedTokenTile) {
      // Three 64-register accumulator sets would spill: no overlap for the widest token tile.
      for (; valid(cur); cur = next(cur)) {
        issue(cur, part0);
        ptx::wgmma_wait<0>();
        promote(cur, part0, acc);
      }
      return;
    }
    float part1[TN / 2];
    if (!valid(cur)) return;
    issue(cur, part0);
    while (true) {
      Step nxt = next(cur);
      if (valid(nxt)) {
        issue(nxt, part1);
        ptx::wgmma_wait<1>();
        promote(cur, part0, acc);
      } else {
        ptx::wgmma_wait<0>();
        promote(cur, part0, acc);
        return;
      }
      cur = nxt;
      nxt = next(cur);
      if (valid(nxt)) {
        issue(nxt, part0);
        ptx::wgmma_wait<1>();
        promote(cur, part1, acc);
      } else {
        ptx::wgmma_wait<0>();
        promote(cur, part1, acc);
        return;
      }
      cur = nxt;
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

__device__ __forceinline__ int kb_count_of(const Params& p, int rank) {
  return (rank + 1) * p.kb_total / p.split - rank * p.kb_total / p.split;
}

struct TileOrigin {
  int n0, m0;
};
__device__ __forceinline__ TileOrigin tile_origin(const Params& p, int64_t t, int tn) {
  return {int(t % p.tiles_n) * p.rows, int(t / p.tiles_n) * tn};
}

// Park a warpgroup-summed partial tile, token-major, in red[token][row]: warpgroup 0 stores, then
// warpgroup 1 adds, so the in-CTA sum has a fixed order. Warps whose 16 rows lie past the tile skip.
template <int TN, int W>
__device__ __forceinline__ void park(float* red, const float (&acc)[TN / 2], int tid, int rows) {
  const int warp = tid / 32, lane = tid % 32;
  const int row = 16 * (warp % 4) + lane / 4;
  const bool live = 16 * (warp % 4) < rows;
#pragma unroll
  for (int w = 0; w < W; ++w) {
    ptx::named_barrier(1, 128 * W);
    if (tid / 128 == w && live) {
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
}

// Rank r sums its share of the tile over ranks 0..split-1 in that order (deterministic) and writes
// it to C. Every rank has parked its partial tile in `red` (the caller waited on the cluster barrier).
template <int TN>
__device__ __forceinline__ void reduce_store(const float* red, const Params& p, TileOrigin o, int rank, int tid,
                                             int threads) {
  const int quads_per_token = p.rows / 4;
  const int quads = TN * quads_per_token;
  const int q_begin = rank * quads / p.split;
  const int q_end = (rank + 1) * quads / p.split;
  for (int q = q_begin + tid; q < q_end; q += threads) {
    const int t = q / quads_per_token;
    const int r = (q % quads_per_token) * 4;
    const float* src = red + t * kRedPitch + r;
    float4 sum = ptx::ld_cluster_f4(ptx::map_to_rank(src, 0));
    for (int other = 1; other < p.split; ++other) {
      const float4 v = ptx::ld_cluster_f4(ptx::map_to_rank(src, other));
      sum.x += v.x, sum.y += v.y, sum.z += v.z, sum.w += v.w;
    }
    const int m = o.m0 + t;
    const int n = o.n0 + r;
    if (m < p.m) {
      const int64_t base = int64_t(m) * p.ldc + n;
      const float vals[4] = {sum.x, sum.y, sum.z, sum.w};
#pragma unroll
      for (int e = 0; e < 4; ++e)
        if (n + e < p.n) store_out(p.c, base + e, vals[e], p.c_dtype);
    }
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
  const int stage_bytes = p.kblocks * (L::kATile + p.rows * kKBlockBytes);
  const int stages_per_tile = (kb_count_of(p, blockIdx.x % p.split) + p.kblocks - 1) / p.kblocks;
  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int rank = blockIdx.x % p.split;  // == %cluster_ctarank: the cluster spans consecutive x
  const int64_t cluster = blockIdx.x / p.split;
  const int64_t clusters = gridDim.x / p.split;
  const int kb_begin = rank * p.kb_total / p.split;
  const int kb_count = (rank + 1) * p.kb_total / p.split - kb_begin;
  const int kb_slice = (p.kb_total + p.split - 1) / p.split;  // the longest K slice of any rank
  float* red = reinterpret_cast<float*>(smem + stages * stage_bytes);
  float* scales = red + 2 * L::kRedFloats;
  uint64_t* full = reinterpret_cast<uint64_t*>(scales + 2 * kb_slice * L::kScalePitch);
  uint64_t* empty = full + stages;

  if (tid == 0) {
    for (int s = 0; s < stages; ++s) {
      ptx::mbar_init(&full[s], 1);     // the producer's arrive.expect_tx; the TMA bytes do the rest
      ptx::mbar_init(&empty[s], 128);  // every thread of the consuming warpgroup
    }
    ptx::fence_barrier_init();
  }
  __syncthreads();

  // Per tile, every thread of the cluster arrives on the cluster barrier once (the producer as soon
  // as it has issued the tile's loads, the math warps once their partial tile is parked) and waits
  // once before arriving again; the last pair keeps every CTA's shared memory alive until the other
  // ranks have read it.
  if (warp == kConsumers / 32) {
    // ---------------- producer warp ----------------
    if (lane == 0) {
      ptx::prefetch_tensormap(&tmap_a);
      ptx::prefetch_tensormap(&tmap_b);
    }
    const uint64_t weight_policy = ptx::l2_evict_first();
    const uint64_t act_policy = ptx::l2_evict_last();
    RingPos pos{0, 0};
    int issued = 0;  // stages issued so far: the first `stages` need no free slot
    bool first = true;
    for (int64_t t = cluster; t < p.tiles; t += clusters) {
      const TileOrigin o = tile_origin(p, t, TN);
      for (int q = 0, kb = kb_begin; q < stages_per_tile; ++q, kb += p.kblocks, pos.advance(1, stages)) {
        // A box may run past the slice: those k-blocks go unused.
        if (issued++ >= stages) ptx::mbar_wait(&empty[pos.slot], pos.phase ^ 1);
        uint8_t* stage = smem + pos.slot * stage_bytes;
        if (lane == 0) {
          ptx::mbar_arrive_expect_tx(&full[pos.slot], stage_bytes);  // full boxes, out-of-bounds parts included
          if (p.kblocks == 1) {  // a 2-D box: measured ~0.8 us faster per call than the same box in 3-D
            ptx::tma_load_2d(stage + L::kATile, &tmap_b, &full[pos.slot], kb * kKBlockBytes, o.n0, weight_policy);
            ptx::tma_load_2d(stage, &tmap_a, &full[pos.slot], kb * kKBlockBytes, o.m0, act_policy);
          } else {
            ptx::tma_load_3d(stage + p.kblocks * L::kATile, &tmap_b, &full[pos.slot], 0, o.n0, kb, weight_policy);
            ptx::tma_load_3d(stage, &tmap_a, &full[pos.slot], 0, o.m0, kb, act_policy);
          }
        }
      }
      __syncwarp();
      if (!first) ptx::cluster_wait();  // the previous tile's barrier: at most one tile ahead
      ptx::cluster_arrive();
      first = false;
    }
    ptx::cluster_wait();
  } else {
    // ---------------- consumer warpgroups ----------------
    int j = 0;
    RingPos tile_start{0, 0};
    const ConsumerLoop<TN, W> loop{smem, scales, full, stages, p.kblocks, kb_count, p.rows};
    for (int64_t t = cluster; t < p.tiles; t += clusters, ++j, tile_start.advance_far(stages_per_tile, stages)) {
      const TileOrigin o = tile_origin(p, t, TN);
      float* tile_scales = scales + (j & 1) * kb_slice * L::kScalePitch;
      float* tile_red = red + (j & 1) * L::kRedFloats;
      if (j == 0) load_scales<TN>(tile_scales, p, o.m0, o.n0, kb_begin, kb_count, tid, kConsumers);
      ptx::named_barrier(2, kConsumers);  // this tile's scales are in shared memory

      float acc[TN / 2];
#pragma unroll
      for (int e = 0; e < TN / 2; ++e) acc[e] = 0.f;
      ConsumerLoop<TN, W> tile_loop = loop;
      tile_loop.scales = tile_scales;
      tile_loop.run(tid / 128, tile_start, acc);
      park<TN, W>(tile_red, acc, tid, p.rows);

      ptx::cluster_arrive();
      if (t + clusters < p.tiles) {  // the next tile's scales, while the other ranks finish
        const TileOrigin next = tile_origin(p, t + clusters, TN);
        float* next_scales = scales + ((j + 1) & 1) * kb_slice * L::kScalePitch;
        load_scales<TN>(next_scales, p, next.m0, next.n0, kb_begin, kb_count, tid, kConsumers);
      }
      ptx::cluster_wait();
      reduce_store<TN>(tile_red, p, o, rank, tid, kConsumers);
    }
  }
  ptx::cluster_arrive();
  ptx::cluster_wait();
}

// ------------------------------------------------------------------------------------------------
// Host side.

// An fp8 [rows][cols] operand (row stride ld) as the decode kernel reads it: boxes of box_rows rows
// x box_kblocks k-blocks, 128-byte swizzle.
TileMapSpec operand_map(const void* base, int64_t rows, int64_t cols, int64_t ld, int box_rows, int box_kblocks) {
  TileMapSpec s;
  s.base = base, s.rows = rows, s.cols = cols, s.ld_bytes = ld;
  s.box_cols = kKBlockBytes, s.box_rows = box_rows, s.box_kblocks = box_kblocks;
  return s;
}

template <int TN, int W>
cudaError_t prepare(int smem_bytes) {
  static std::atomic<int> raised[kMaxDevices];
  return raise_smem_limit(swapab_splitk_kernel<TN, W>, raised, smem_bytes);
}

template <int TN, int W>
blockfp8_status_t launch(const Problem& p, const blockfp8_config_t& cfg, const DeviceInfo& dev, cudaStream_t stream) {
  const int kb_slice = swapab_kb_slice(p.k / 128, cfg.split_k);
  const int smem = swapab_smem_bytes(TN, cfg.weight_rows, cfg.stage_kblocks, cfg.stages, kb_slice);
  if (prepare<TN, W>(smem) != cudaSuccess) return BLOCKFP8_ERROR_CUDA;

  CUtensorMap map_a, map_b;
  if (!cached_tile_map(&map_a, operand_map(p.a, p.m, p.k, p.lda, TN, cfg.stage_kblocks)) ||
      !cached_tile_map(&map_b, operand_map(p.b, p.n, p.k, p.ldb, cfg.weight_rows, cfg.stage_kblocks)))
    return BLOCKFP8_ERROR_CUDA;

  Params prm{};
  prm.m = int(p.m), prm.n = int(p.n), prm.kb_total = int(p.k_blocks());
  prm.rows = cfg.weight_rows;
  prm.tiles_n = int((p.n + cfg.weight_rows - 1) / cfg.weight_rows);
  prm.tiles = int64_t(prm.tiles_n) * ((p.m + TN - 1) / TN);
  prm.a_scale = p.a_scale, prm.sa_m = p.a_scale_stride_m, prm.sa_k = p.a_scale_stride_k;
  prm.b_scale = p.b_scale, prm.sb_n = p.b_scale_stride_n, prm.sb_k = p.b_scale_stride_k;
  prm.c = p.c, prm.ldc = p.ldc, prm.c_dtype = p.c_dtype;
  prm.split = cfg.split_k, prm.stages = cfg.stages, prm.kblocks = cfg.stage_kblocks;

  // As many clusters as the device holds at once (the dispatcher checked it holds at least one);
  // each walks the tiles `clusters` apart.
  const int64_t clusters = std::min<int64_t>(prm.tiles, std::max(1, dev.max_clusters[cfg.split_k]));

  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = cfg.split_k;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cudaLaunchConfig_t lc{};
  lc.gridDim = dim3(unsigned(clusters * cfg.split_k));
  lc.blockDim = dim3(128 * W + 32);
  lc.dynamicSmemBytes = smem;
  lc.stream = stream;
  lc.attrs = attr;
  lc.numAttrs = 1;
  if (cudaLaunchKernelEx(&lc, swapab_splitk_kernel<TN, W>, map_a, map_b, prm) != cudaSuccess)
    return BLOCKFP8_ERROR_CUDA;
  return BLOCKFP8_SUCCESS;
}

}  // namespace

template <int TN>
blockfp8_status_t launch_tn(const Problem& p, const blockfp8_config_t& cfg, const DeviceInfo& dev,
                            cudaStream_t stream) {
  if constexpr (TN <= kSwapabMaxTokenTileFor2Warpgroups) {
    if (cfg.warpgroups == 2) return launch<TN, 2>(p, cfg, dev, stream);
  }
  return launch<TN, 1>(p, cfg, dev, stream);
}

blockfp8_status_t launch_swapab_splitk(const Problem& p, const blockfp8_config_t& cfg, const DeviceInfo& dev,
                                       cudaStream_t stream) {
  switch (cfg.token_tile) {
    case 8: return launch_tn<8>(p, cfg, dev, stream);
    case 16: return launch_tn<16>(p, cfg, dev, stream);
    case 32: return launch_tn<32>(p, cfg, dev, stream);
    case 64: return launch_tn<64>(p, cfg, dev, stream);
    case 128: return launch_tn<128>(p, cfg, dev, stream);
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
