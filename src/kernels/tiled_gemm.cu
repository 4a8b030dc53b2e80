// Prefill kernel (large M): 128-token (or 256-token) x weight_rows output tiles at tensor-core speed.
//
// With hundreds of tokens the GEMM is compute-bound, so the tokens go on wgmma's M side (a 128-token
// tile is two math warpgroups of 64 rows) and weight rows on its N side (weight_rows = 64..192, a
// multiple of 16 chosen so that N splits into tiles that fill the SMs evenly; 2112 = 11 x 192).
// A 256-token tile gives each math warpgroup two 64-row wgmma tiles against one weight tile of
// 96..128 rows: fewer bytes into shared memory a flop, and other rounds (dispatch_tiled.h).
//
// CTA = 2 math warpgroups (full-width wgmma per k-block, promoted while the other warpgroup's
// wgmma runs; epilogue) + 1 producer warpgroup in which one thread issues the TMA loads of A and B
// and one warp per 128 tokens the cp.async copies of the scales, into a ring of `stages` stages guarded
// by full/empty mbarriers; setmaxnreg moves the producer's registers to the math warpgroups.
// CTAs are persistent: each walks tiles blockIdx.x, blockIdx.x + gridDim.x, ... in a grouped order
// (M fastest within groups of kTiledGroupM token rows) so that one wave shares its weight and
// activation tiles in L2, and the producer streams the next tile while the math warpgroups run the
// current epilogue. Every output is one CTA's fixed-order sum, or (split-K, where one tile an SM
// would leave SMs idle: mid M) the sum of a cluster's K shares in rank order, read through
// distributed shared memory: bitwise deterministic either way.
// Multicast (the config's cluster_m x cluster_n, chosen in dispatch_tiled.cpp): clusters of CTAs on
// neighbouring weight tiles share one token tile, each loading a slice of it for all; or pairs on two
// token tiles share one weight tile, each loading half of it for both, so the weight crosses
// L2 -> SM once per pair (a CTA moves 16 KB of A + BN/2 x 128 B of B a k-block, not 16 + BN x 128 B).
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <atomic>
#include <utility>

#include "dispatch_tiled.h"
#include "kernels/launch.h"
#include "kernels/ptx.cuh"
#include "kernels/host_support.h"
#include "kernels/store_out.cuh"
#include "kernels/timeline.cuh"

namespace blockfp8::detail {
namespace {

using ptx::kKBlockBytes;

#ifdef BLOCKFP8_TIMELINE
__device__ TimelineRows g_timeline;  // kernels/timeline.cuh; read by read_tiled_timeline
#endif

// TM, the tokens of a tile (wgmma M of both math warpgroups: kTiledTokenTile or kTiledWideTokenTile), is
// a template parameter of everything below that depends on it; split-K runs 128-token tiles only.
constexpr int kSplitTokens = kTiledTokenTile;
constexpr int kMathThreads = 128 * kTiledWarpgroups;
constexpr int kThreads = kMathThreads + 128;  // + the producer warpgroup
// 128 x 56 + 256 x 224 = 64512 registers, what a 384-thread CTA is given at 168 a thread. The producers
// need them: the split-K kernel's carry their K range (at 48 they spilled 8-16 bytes), and the scale
// warp of produce_scales_rows holds four k-blocks of its rows (at 48 ptxas saved registers to the
// stack around the 64-bit divisions of tile_at; in the split-K kernel it does so at 56, which is why
// that kernel keeps the copies).
constexpr int kProducerRegs = 56;
constexpr int kSplitProducerRegs = 56;
constexpr int kMathRegs = 224;
template <int TM>
constexpr int kScalePitch = tiled_scale_bytes(TM) / 4;  // floats per stage: TM a_scales, 4 b_scale slots
// The output tile is staged as columns of 16 elements (32-byte rows, 32-byte swizzle): one TMA
// store box each, and the accumulator fragment writes into it without bank conflicts.
constexpr int kOutCols = 16;
constexpr int kOutChunkBytes = 64 * kOutCols * 2;  // one warpgroup's 64 rows of one column chunk
// Named barriers: 1 and 2 are the warpgroups' epilogue barriers; these two pass the issue turn.
constexpr uint32_t kTurnOf0 = 3, kTurnOf1 = 4;
// Split-K: both math warpgroups are past their last wgmma, and the ring may hold the partial tile.
constexpr uint32_t kSplitParked = 5;
// Arrivals that complete a full barrier: the TMA thread's arrive.expect_tx and, per lane of each
// scale warp (one per 128 tokens of the tile), the arrival that follows its cp.async copies of the
// stage's scales (produce_scales) or its stores of them (produce_scales_rows).
template <int TM>
constexpr int kScaleWarps = TM / 128;
template <int TM>
constexpr int kFullArrivals = 1 + 32 * kScaleWarps<TM>;

struct Params {
  int m, n, kb_total;
  int m_tiles, n_tiles;
  // CTAs of a cluster along M (1 or 2) and along N (1, 2 or 4); both above 1 only in the k2D instances
  // (2 x 2, 2 x 4: tile_at). cta_m = 2: the cluster's CTAs take token tiles 2u and 2u + 1 against one
  // weight tile, and each producer multicasts its half of the weight tile to both. cta_n = c: they take
  // weight tiles cv .. cv + c - 1 against one token tile, and each multicasts its 128 / c token rows of it
  // to all c.
  int cta_m, cta_n;
  int m_units;      // ceil(m_tiles / cta_m)
  int n_units;      // ceil(n_tiles / cta_n)
  int64_t units;    // m_units * n_units: what the clusters walk
  const float* a_scale;
  int64_t sa_m, sa_k;
  const float* b_scale;
  int64_t sb_n, sb_k;
  void* c;
  int64_t ldc;
  int c_dtype;
  int stages;
  int tma_store;  // bf16 / fp16 output through shared memory and the TMA engine
  int k_split;    // split-K kernel only: CTAs of a cluster sharing one tile along K (one tile a cluster)
  int scale_route;  // how the scales reach the ring: TiledScaleRoute (tiled_scale_route)
  // (Two more ints here, the tail maps' box rows, changed how ptxas compiled the math warpgroups'
  // loop and cost 3-14 % at full tiles (s8 call 3): the kernel derives them from m and n instead.)
};

// Shared-memory layout of one CTA, from a 1024-byte aligned base (128-byte swizzle atoms need it):
//   [stages x (A tile: TM x 128 B | B tile: BN x 128 B)] [output tile: TM/64 x BN/16 x 64 x 32 B]
//   [stages x (TM a_scales, 4 b_scales)] [stages full mbarriers] [stages empty mbarriers]
// (tiled_smem_bytes in dispatch_tiled.cpp is the same sum.)
template <int TM, int BN>
struct Layout {
  static constexpr int kATile = TM * kKBlockBytes;
  static constexpr int kBTile = BN * kKBlockBytes;
  static constexpr int kStage = kATile + kBTile;
  static constexpr int kOutWg = TM / 2 * BN * 2;  // one math warpgroup's TM / 2 rows
  static_assert(kStage % 1024 == 0, "stages must keep the 1024-byte alignment of swizzle atoms");
};

struct Tile {
  int m0, n0;
};

// The operands' tensor maps: full boxes of a CTA's slice of the token tile (a) and the weight tile
// (b), and boxes of the remainder at M and N (a_tail, b_tail: copies of a and b where there is none).
struct TileMaps {
  const CUtensorMap *a, *a_tail, *b, *b_tail;
  const CUtensorMap* sa;  // column-major a_scales (kScalesTmaA): one 128-token box of one k-block
};

// This CTA's tile of unit u of the grouped order: groups of kTiledGroupM token rows, M fastest
// inside a group, so consecutive units (the clusters of one wave) share one weight tile across
// several token tiles. A unit is cta_m token tiles against one weight tile; cluster rank r takes
// the r-th (past M when m_tiles is odd: it still loads its half of the weight, and stores nothing);
// with cta_n > 1 the same along N (past N: its share of A still goes out, nothing is stored).
//
// A CTA's place in its cluster: which token tile of the unit (m) and which weight tile (n) it takes. A 1-D
// cluster ranks its CTAs along its one side; a 2-D one (k2D instances: cta_m = 2, cta_n = 2 or 4) as
// rank = 2 n + m, and multicasts both operands: the token tile's rows to the cta_n CTAs of its m, the
// weight tile's to the 2 of its n.
struct Place {
  int m, n;
};
template <bool k2D>
__device__ __forceinline__ Place place_in_cluster(const Params& p, int rank) {
  if constexpr (k2D) return {rank & 1, rank >> 1};
  else return {p.cta_m > 1 ? rank : 0, p.cta_n > 1 ? rank : 0};
}
template <int TM, int BN, bool k2D = false>
__device__ __forceinline__ Tile tile_at(int64_t u, const Params& p, int rank) {
  const int group_units = kTiledGroupM / p.cta_m;  // a group spans kTiledGroupM token tiles
  const int64_t per_group = int64_t(group_units) * p.n_units;
  const int group = int(u / per_group);
  const int local = int(u - int64_t(group) * per_group);
  const int first = group * group_units;
  const int rows = min(group_units, p.m_units - first);
  const Place at = place_in_cluster<k2D>(p, rank);
  return {((first + local % rows) * p.cta_m + at.m) * TM, ((local / rows) * p.cta_n + at.n) * BN};
}

// CTAs in this CTA's cluster (1, 2 or 4; its rank there is blockIdx.x % ctas == %cluster_ctarank: a
// cluster spans consecutive x).
__device__ __forceinline__ int cluster_ctas(const Params& p) { return p.cta_m * p.cta_n; }

// What this CTA walks: units u0, u0 + du, ... and k-blocks [kb0, kb1) of each; rank is its place in a
// multicast cluster. Split-K: a cluster of p.k_split CTAs takes one unit, rank r the r-th share of K.
struct Work {
  int64_t u0, du;
  int kb0, kb1, rank;
};
template <bool kSplit>
__device__ __forceinline__ Work my_work(const Params& p) {
  if constexpr (kSplit) {
    const int r = int(blockIdx.x % p.k_split);
    return {blockIdx.x / p.k_split, gridDim.x / p.k_split, r * p.kb_total / p.k_split,
            (r + 1) * p.kb_total / p.k_split, 0};
  } else {
    const int ctas = cluster_ctas(p);
    return {blockIdx.x / ctas, gridDim.x / ctas, 0, p.kb_total, int(blockIdx.x % ctas)};
  }
}

// Rows of this CTA's slice of an operand tile that exist: a slice is `rows` rows from `start`; the
// operand has `limit` rows.
__device__ __forceinline__ int rows_within(int start, int rows, int limit) { return min(max(limit - start, 0), rows); }

// Position in the stage ring; the phase bit flips every time the ring wraps.
struct RingPos {
  int stage = 0;
  uint32_t phase = 0;
  __device__ __forceinline__ void next(int stages) {
    if (++stage == stages) stage = 0, phase ^= 1;
  }
};

// ------------------------------------------------------------------------------------------------
// The producer warpgroup's two working warps, each walking every k-block of every tile of this CTA
// and waiting for each stage to be free before filling its part. Split so that neither sets the
// pace: with one warp doing both, its per-stage address arithmetic (a dependent chain of 64-bit
// multiplies for five scale addresses) made the math warps wait on full barriers 13.5 % of their
// time at 4096 x 7168 x 4096 (ncu source counters, 2026-11-30), where cuBLASLt's waited 1-2 %.
//
// One thread TMAs the A and B tiles (in a cluster: its slices of them, to every CTA that shares them).
template <int TM, int BN, bool kSplit, bool k2D>
__device__ __forceinline__ void produce_tiles(const TileMaps& maps, const Params& p, uint8_t* smem, float* scales,
                                              uint64_t* full, uint64_t* empty) {
  using L = Layout<TM, BN>;
  const uint64_t policy = ptx::l2_evict_normal();  // both operands are re-read by other tiles
  const int ctas = cluster_ctas(p);
  const Work w = my_work<kSplit>(p);
  const int rank = w.rank;
  // With a pair along M, this CTA loads weight rows [rank BN/2, (rank + 1) BN/2) of the tile into
  // both CTAs (the map's box is BN/2 rows; 1024-byte aligned in shared memory since 16 | BN); along
  // N, token rows [a_rows rank, a_rows (rank + 1)) of the token tile into all (the A map's box is
  // 128 / cta_n rows).
  // (k2D: along M by its place's m, along N by its n, each operand multicast to the CTAs that share it.)
  // (The rank's two sides as place_in_cluster has them, written so that the 1-D instances keep their SASS.)
  const int rank_m = k2D ? rank & 1 : rank, rank_n = k2D ? rank >> 1 : rank;
  const int b_rows = BN / p.cta_m;
  const int b_offset = L::kATile + (p.cta_m > 1 ? rank_m : 0) * b_rows * kKBlockBytes;
  const int a_rows = TM / p.cta_n;
  const int a_offset = (p.cta_n > 1 ? rank_n : 0) * a_rows * kKBlockBytes;
  const uint16_t everyone = uint16_t((1u << ctas) - 1);
  const uint16_t to_a = k2D ? uint16_t((p.cta_n == 2 ? 0x5u : 0x55u) << rank_m) : everyone;
  const uint16_t to_b = k2D ? uint16_t(0x3u << (2 * rank_n)) : everyone;
  // No tile of the grid crosses M or N, and no cluster has a CTA past them.
  const bool interior = p.m % TM == 0 && p.n % BN == 0 && p.m_tiles % p.cta_m == 0 && p.n_tiles % p.cta_n == 0;
  RingPos pos;
  BLOCKFP8_MARK(11, true);  // the TMA thread's work worked out (my_work, policy)
  for (int64_t u = w.u0; u < p.units; u += w.du) {
    const Tile tile = tile_at<TM, BN, k2D>(u, p, rank);
    BLOCKFP8_MARK(12, u == w.u0);  // its first tile worked out (tile_at)
    // Rows past M or N are never loaded. A box that crosses the edge has the TMA engine write zeros
    // for the rest, slowly: at M = 65 the kernel took twice its M = 128 time, and a pair's CTA past M
    // (M = 384) 1.7x the time of M = 512 (s8 call 2). Those rows only feed outputs that are never
    // stored, so whatever the ring holds there will do. A partial slice takes the tail map, whose box
    // is the edge's remainder; the stage expects the bytes of the rows that exist, from every slice.
    const int a_start = tile.m0 + (p.cta_n > 1 ? rank_n * a_rows : 0),
              b_start = tile.n0 + (p.cta_m > 1 ? rank_m * b_rows : 0);
    const int a_valid = rows_within(a_start, a_rows, p.m), b_valid = rows_within(b_start, b_rows, p.n);
    const uint32_t tx =
        uint32_t((rows_within(tile.m0, TM, p.m) + rows_within(tile.n0, BN, p.n)) * kKBlockBytes);
    // Each map at its own call site: a descriptor address picked at run time is not uniform, and the
    // compiler then wraps every TMA issue in a loop over the values it may take.
    auto load_a = [&](const CUtensorMap* map, uint8_t* stage, uint64_t* bar, int kb) {
      if (p.cta_n > 1)
        ptx::tma_load_2d_multicast(stage + a_offset, map, bar, kb * kKBlockBytes, a_start, to_a, policy);
      else
        ptx::tma_load_2d(stage, map, bar, kb * kKBlockBytes, a_start, policy);
    };
    auto load_b = [&](const CUtensorMap* map, uint8_t* stage, uint64_t* bar, int kb) {
      if (p.cta_m > 1)
        ptx::tma_load_2d_multicast(stage + b_offset, map, bar, kb * kKBlockBytes, b_start, to_b, policy);
      else
        ptx::tma_load_2d(stage + L::kATile, map, bar, kb * kKBlockBytes, b_start, policy);
    };
    // Column-major a_scales: the token tile's 128 scales of k-block kb are one 512-byte row of the map,
    // one request for the TMA engine (row-major ones are 128 words a k-block, copied by the scale warp).
    const bool sa_tma = p.scale_route == kScalesTmaA;
    const uint32_t scale_tx = sa_tma ? TM * 4 : 0;
    auto load_a_scales = [&](int s, uint64_t* bar, int kb) {
      ptx::tma_load_2d(scales + s * kScalePitch<TM>, maps.sa, bar, tile.m0, kb, policy);
    };
    if (interior) {
      // Every slice of every tile whole (the common case): the loop as it was before edges were
      // handled. With only the general loop below, full tiles took 1.00-1.15x the time of that
      // build (s8 call 5); with this one 0.98-1.04x. (The 1.13x once seen on 24576x1536 M = 512 was
      // the clock, not the code: s9 calls 1 and 9.)
      for (int kb = w.kb0; kb < w.kb1; ++kb, pos.next(p.stages)) {
        const int s = pos.stage;
        ptx::mbar_wait(&empty[s], pos.phase ^ 1);
        uint8_t* stage = smem + s * L::kStage;
        ptx::mbar_arrive_expect_tx(&full[s], L::kStage + scale_tx);
        load_a(maps.a, stage, &full[s], kb);
        load_b(maps.b, stage, &full[s], kb);
        if (sa_tma) load_a_scales(s, &full[s], kb);
        BLOCKFP8_MARK(8, u == w.u0 && kb == w.kb0);  // the first stage's loads issued
      }
      continue;
    }
    for (int kb = w.kb0; kb < w.kb1; ++kb, pos.next(p.stages)) {
      const int s = pos.stage;
      // The first pass finds every stage free. In a cluster, the stage is free once the math warps
      // of every CTA have released it: this producer's multicast writes into all of them.
      ptx::mbar_wait(&empty[s], pos.phase ^ 1);
      uint8_t* stage = smem + s * L::kStage;
      ptx::mbar_arrive_expect_tx(&full[s], tx + scale_tx);
      if (a_valid == a_rows) load_a(maps.a, stage, &full[s], kb);
      else if (a_valid > 0) load_a(maps.a_tail, stage, &full[s], kb);
      if (b_valid == b_rows) load_b(maps.b, stage, &full[s], kb);
      else if (b_valid > 0) load_b(maps.b_tail, stage, &full[s], kb);
      if (sa_tma) load_a_scales(s, &full[s], kb);
      BLOCKFP8_MARK(8, u == w.u0 && kb == w.kb0);  // the first stage's loads issued
    }
  }
  BLOCKFP8_MARK(2, true);  // the last load issued
  // In a cluster, the other CTAs' math warps arrive on this CTA's empty barriers, and their producers
  // wrote into this CTA's ring: stay until every CTA has released every stage, so that nothing
  // targets this CTA's shared memory after it exits.
  if (ctas > 1)
    for (int i = 0; i < p.stages; ++i, pos.next(p.stages)) ptx::mbar_wait(&empty[pos.stage], pos.phase ^ 1);
}

// A scale warp per 128 tokens of the tile (slice: which) cp.asyncs each stage's scales: its 128 token
// scales (4 a lane) and, in slice 0, the b_scales of the (up to three) 128-row blocks the weight tile
// touches (lanes 0-3), then arrives on the full barrier when its copies land. Addresses are set once
// per tile and stepped by one k-block. (A second warp for the wide tile keeps each warp's registers
// where the 56 a producer allows.)
template <int TM, int BN, bool kSplit, bool k2D, int slice>
__device__ __forceinline__ void produce_scales(const Params& p, float* scales, uint64_t* full, uint64_t* empty,
                                               int lane) {
  const int nb_total = (p.n + 127) / 128;
  const Work w = my_work<kSplit>(p);
  const int rank = w.rank;
  RingPos pos;
  for (int64_t u = w.u0; u < p.units; u += w.du) {
    const Tile tile = tile_at<TM, BN, k2D>(u, p, rank);
    // Token lane + 32 i of the slice: a_row + 32 i rows, valid while 32 i < rows_left (past M: 0).
    const int m0 = tile.m0 + 128 * slice;
    const int rows_left = p.m - m0 - lane;
    const float* a_row = p.a_scale + (rows_left > 0 ? int64_t(m0 + lane) * p.sa_m : 0);
    const int64_t a_step = 32 * p.sa_m;
    const int nb = tile.n0 / 128 + lane;
    const bool b_ok = slice == 0 && lane < 4 && nb < nb_total;
    const float* b_src = p.b_scale + (b_ok ? int64_t(nb) * p.sb_n : 0);
    for (int kb = w.kb0; kb < w.kb1; ++kb, pos.next(p.stages)) {
      const int s = pos.stage;
      ptx::mbar_wait(&empty[s], pos.phase ^ 1);
      float* sc = scales + s * kScalePitch<TM>;
      const float* a_src = a_row + int64_t(kb) * p.sa_k;
      if (p.scale_route != kScalesTmaA) {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          const bool ok = 32 * i < rows_left;
          ptx::cp_async_4(sc + 128 * slice + lane + 32 * i, ok ? a_src + i * a_step : p.a_scale, ok);
        }
      }
      if (slice == 0 && lane < 4) ptx::cp_async_4(sc + TM + lane, b_src + int64_t(kb) * p.sb_k, b_ok);
      ptx::cp_async_mbar_arrive_noinc(&full[s]);
    }
  }
}

__device__ __forceinline__ float pick(const float4& v, int j) { return j == 0 ? v.x : j == 1 ? v.y : j == 2 ? v.z : v.w; }

// kScalesRows (the unsplit kernel): row-major scales whose rows are 16-byte aligned, K/128 a multiple of 4.
// Each lane loads four k-blocks of each of its rows with one 16-byte load, a quarter of the requests
// of four-byte copies, one k-block before the first of them is stored, and stores one k-block's worth
// into each stage.
template <int TM, int BN, bool kSplit, bool k2D, int slice>
__device__ __forceinline__ void produce_scales_rows(const Params& p, float* scales, uint64_t* full, uint64_t* empty,
                                                    int lane) {
  const int nb_total = (p.n + 127) / 128;
  const Work w = my_work<kSplit>(p);
  RingPos pos;
  for (int64_t u = w.u0; u < p.units; u += w.du) {
    const Tile tile = tile_at<TM, BN, k2D>(u, p, w.rank);
    const int m0 = tile.m0 + 128 * slice;
    const int rows_left = p.m - m0 - lane;  // rows lane + 32 i of the slice exist while 32 i < rows_left
    const float4* a_row =
        reinterpret_cast<const float4*>(p.a_scale + (rows_left > 0 ? int64_t(m0 + lane) * p.sa_m : 0));
    const int64_t a_step = 8 * p.sa_m;  // 32 rows, in float4s
    const int nb = tile.n0 / 128 + lane;
    const bool b_ok = slice == 0 && lane < 4 && nb < nb_total;
    const float4* b_row = reinterpret_cast<const float4*>(p.b_scale + (b_ok ? int64_t(nb) * p.sb_n : 0));
    float4 a[4], b = {};
    auto load = [&](int group) {  // k-blocks 4 group .. 4 group + 3
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = 32 * i < rows_left ? __ldg(a_row + i * a_step + group) : float4{};
      if (b_ok) b = __ldg(b_row + group);
    };
    load(w.kb0 / 4);
    for (int kb = w.kb0; kb < w.kb1; ++kb, pos.next(p.stages)) {
      const int s = pos.stage, j = kb % 4;
      ptx::mbar_wait(&empty[s], pos.phase ^ 1);
      float* sc = scales + s * kScalePitch<TM>;
#pragma unroll
      for (int i = 0; i < 4; ++i) sc[128 * slice + lane + 32 * i] = pick(a[i], j);
      if (slice == 0 && lane < 4) sc[TM + lane] = pick(b, j);
      ptx::mbar_arrive(&full[s]);  // release: the stores are visible to whoever sees the phase complete
      if (j == 3 && kb + 1 < w.kb1) load((kb + 1) / 4);
    }
  }
}

// Scale warp `slice` (warp slice + 1 of the producer warpgroup) of a TM-token tile, by the route p's scales take.
// The slice is a template argument and enters the producers as an offset of the tile's first row only, so that
// the 128-token instances compile to the SASS they had before the wide tile (see the note at consume).
template <int TM, int BN, bool kSplit, bool k2D, int slice>
__device__ __forceinline__ void produce_scale_slice(const Params& p, float* scales, uint64_t* full, uint64_t* empty,
                                                    int lane) {
  if constexpr (slice < kScaleWarps<TM>) {
    if (!kSplit && p.scale_route == kScalesRows)
      produce_scales_rows<TM, BN, kSplit, k2D, slice>(p, scales, full, empty, lane);
    else
      produce_scales<TM, BN, kSplit, k2D, slice>(p, scales, full, empty, lane);
  }
}

// ------------------------------------------------------------------------------------------------
__device__ __forceinline__ uint32_t pack2(float lo, float hi, int dtype) {
  if (dtype == BLOCKFP8_DTYPE_BF16) {
    const __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<const uint32_t*>(&v);
  }
  const __half2 v = __floats2half2_rn(lo, hi);
  return *reinterpret_cast<const uint32_t*>(&v);
}

// Epilogue through shared memory: each of the warpgroup's 64 x BN wgmma tiles (kSubs of them, from
// token row tile.m0 + TM/2 wg of C) into its staging buffer (columns of 16 elements, 32-byte swizzle: byte bit 4
// ^= bit 7, the TMA's SWIZZLE_32B), then one TMA store per column chunk; the engine clips rows past M
// and columns past N.
template <int TM, int BN>
__device__ __forceinline__ void store_tile_tma(const float (&acc)[TM / 128][BN / 2], const CUtensorMap* map_c,
                                               const Params& p, uint8_t* out, Tile tile, int wg, int tid_wg) {
  constexpr int kSubs = TM / 128, kOutSub = 64 * BN * 2;
  const int lane = tid_wg % 32;
  const int row = 16 * (tid_wg / 32) + lane / 4;
  // The previous tile's stores must have read the buffer before it is overwritten.
  if (tid_wg == 0) ptx::bulk_wait_group_read<0>();
  ptx::named_barrier(1 + wg, 128);
#pragma unroll
  for (int sub = 0; sub < kSubs; ++sub) {
#pragma unroll
    for (int j = 0; j < BN / 8; ++j) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        uint32_t off = uint32_t((row + 8 * h) * 32 + (j % 2) * 16 + 4 * (lane % 4));
        off ^= (off >> 3) & 16;
        *reinterpret_cast<uint32_t*>(out + sub * kOutSub + (j / 2) * kOutChunkBytes + off) =
            pack2(acc[sub][4 * j + 2 * h], acc[sub][4 * j + 2 * h + 1], p.c_dtype);
      }
    }
  }
  ptx::fence_proxy_async_shared();  // the writes above, before the TMA engine reads them
  ptx::named_barrier(1 + wg, 128);
  if (tid_wg == 0) {
#pragma unroll
    for (int sub = 0; sub < kSubs; ++sub) {
      const int m0 = tile.m0 + TM / 2 * wg + 64 * sub;
      if (m0 < p.m) {
#pragma unroll 1
        for (int c = 0; c < BN / kOutCols && tile.n0 + c * kOutCols < p.n; ++c)
          ptx::tma_store_2d(map_c, out + sub * kOutSub + c * kOutChunkBytes, tile.n0 + c * kOutCols, m0);
      }
    }
    ptx::bulk_commit_group();
  }
}

// Epilogue for fp32 output or a C the TMA engine cannot address: predicated stores from registers
// (one 64-token wgmma tile, from token row tile.m0 + sub_row of C).
template <int BN>
__device__ __forceinline__ void store_tile_direct(const float (&acc)[BN / 2], const Params& p, Tile tile, int sub_row,
                                                  int tid_wg) {
  const int lane = tid_wg % 32;
  const int row = tile.m0 + sub_row + 16 * (tid_wg / 32) + lane / 4;
#pragma unroll
  for (int j = 0; j < BN / 8; ++j) {
    const int n = tile.n0 + 8 * j + 2 * (lane % 4);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int m = row + 8 * h;
      if (m >= p.m) continue;
      const int64_t base = int64_t(m) * p.ldc + n;
      if (n < p.n) store_out(p.c, base, acc[4 * j + 2 * h], p.c_dtype);
      if (n + 1 < p.n) store_out(p.c, base + 1, acc[4 * j + 2 * h + 1], p.c_dtype);
    }
  }
}

// Split-K: the partial tile, fp32 [128][BN + 4] from the ring's start (the pad spreads a warp's eight
// rows over the banks), parked by each math thread from its accumulator fragment.
template <int BN>
constexpr int kPartialPitch = BN + 4;
template <int BN>
__device__ __forceinline__ void park_partial(float* red, const float (&acc)[BN / 2], int row, int lane) {
#pragma unroll
  for (int j = 0; j < BN / 8; ++j)
#pragma unroll
    for (int h = 0; h < 2; ++h)
      *reinterpret_cast<float2*>(red + (row + 8 * h) * kPartialPitch<BN> + 8 * j + 2 * (lane % 4)) =
          make_float2(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1]);
}

// Split-K: cluster rank r sums rows [128 r / S, 128 (r + 1) / S) of the tile over every rank's parked
// partial, in rank order (bitwise deterministic), and stores them. A thread issues all S ranks' loads
// of a quad before the first add (summed as they came, each load waited out the DSMEM latency of the
// one before it, S times a quad), reads its own rank's partial from its own shared memory, and stores
// the quad at once where C allows, in a loop made per C dtype (one store per element behind a branch
// on the dtype was the decode kernel's tail until the twenty-third session).
template <int BN, int S, int kDtype>
__device__ __forceinline__ void reduce_split_store_as(const float* red, const Params& p, Tile tile, int tid) {
  constexpr int kQuads = BN / 4;
  const int rank = int(blockIdx.x % S);
  const bool whole_quads = c_quads_aligned(p.c, p.ldc, kDtype);
  // Rows past M are never stored: their partials are not read either.
  const int q_end = min((rank + 1) * kSplitTokens / S, max(p.m - tile.m0, 0)) * kQuads;
#pragma unroll 1
  for (int q = rank * kSplitTokens / S * kQuads + tid; q < q_end; q += kMathThreads) {
    const int row = q / kQuads, quad = q - row * kQuads;
    const float* src = red + row * kPartialPitch<BN> + quad * 4;
    float4 v[S];
#pragma unroll
    for (int r = 0; r < S; ++r)
      v[r] = r == rank ? *reinterpret_cast<const float4*>(src) : ptx::ld_cluster_f4(ptx::map_to_rank(src, r));
    float4 sum = v[0];
#pragma unroll
    for (int r = 1; r < S; ++r) sum.x += v[r].x, sum.y += v[r].y, sum.z += v[r].z, sum.w += v[r].w;
    const int m = tile.m0 + row, n = tile.n0 + quad * 4;
    store_quad_as<kDtype>(p.c, int64_t(m) * p.ldc + n, sum, n, p.n, whole_quads);
  }
}

template <int BN, int S>
__device__ __forceinline__ void reduce_split_store_s(const float* red, const Params& p, Tile tile, int tid) {
  with_c_dtype(p.c_dtype, [&](auto d) { reduce_split_store_as<BN, S, decltype(d)::value>(red, p, tile, tid); });
}

template <int BN>
__device__ __forceinline__ void reduce_split_store(const float* red, const Params& p, Tile tile, int tid) {
  static_assert(kTiledMaxSplitK == 8, "one instantiation per split");
  switch (p.k_split) {
    case 2: return reduce_split_store_s<BN, 2>(red, p, tile, tid);
    case 3: return reduce_split_store_s<BN, 3>(red, p, tile, tid);
    case 4: return reduce_split_store_s<BN, 4>(red, p, tile, tid);
    case 5: return reduce_split_store_s<BN, 5>(red, p, tile, tid);
    case 6: return reduce_split_store_s<BN, 6>(red, p, tile, tid);
    case 7: return reduce_split_store_s<BN, 7>(red, p, tile, tid);
    default: return reduce_split_store_s<BN, 8>(red, p, tile, tid);
  }
}

// A math thread's place in the ring: the stage, its phase, and the thread's own addresses in that
// stage (its warpgroup's A descriptor, its token scales, its cluster peer's empty barrier), carried
// from stage to stage by adding a stride. Computed from the thread index at each k-block, ptxas
// re-derived them there: an S2R of %tid and a dozen dependent instructions between the promotion and
// the next wgmma (ncu, s16 call 7). Carried: 0.94-1.02x the time on 15 tiled points in each of s16
// calls 8 and 10.
struct MathPos : RingPos {
  uint64_t desc_a;   // this warpgroup's 64 token rows of the stage's A tile
  const float* sa;   // this thread's first token scale in the stage
  uint32_t peer;     // the stage's empty barrier in the cluster CTA this lane releases to (0: none;
                     // a real one is never 0: the barriers lie past the ring in every CTA's window)
  template <int TM, int BN>
  __device__ __forceinline__ void advance(int stages) {
    const int step = stage + 1 == stages ? 1 - stages : 1;  // stages to the next one (back to 0: wrap)
    next(stages);
    desc_a += uint64_t(int64_t(step) * (Layout<TM, BN>::kStage >> 4));  // the address is in 16-byte units
    sa += step * kScalePitch<TM>;
    if (peer) peer += step * 8;
  }
};

// One k-block of 64 tokens (desc_a) x the BN-row weight tile: four full-width k32 wgmmas into `part`,
// committed as one group.
template <int TM, int BN>
__device__ __forceinline__ void issue_kblock(float (&part)[BN / 2], const uint8_t* stage, uint64_t desc_a) {
  using L = Layout<TM, BN>;
  const uint64_t desc_b = ptx::wgmma_desc_k128_sw128(stage + L::kATile);
  ptx::wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < kKBlockBytes / 32; ++kk)
    ptx::WgmmaE4M3<BN>::mma(part, ptx::desc_advance(desc_a, kk * 32), ptx::desc_advance(desc_b, kk * 32), kk > 0);
  ptx::wgmma_commit();
}

// A k-block's scales for this thread's two token rows, times the b_scales of the (up to three)
// 128-row blocks the weight tile touches: s[h][b] scales row (h ? row + 8 : row), block b.
struct KScales {
  float s[2][3];
  // sa: this thread's first token scale in the stage; sb_slots: the stage's b_scale slots.
  __device__ __forceinline__ KScales(const float* sa, const float* sb_slots) {
    const float sa0 = sa[0], sa1 = sa[8];
    const float4 sb = *reinterpret_cast<const float4*>(sb_slots);
    s[0][0] = sa0 * sb.x, s[0][1] = sa0 * sb.y, s[0][2] = sa0 * sb.z;
    s[1][0] = sa1 * sb.x, s[1][1] = sa1 * sb.y, s[1][2] = sa1 * sb.z;
  }
};

// acc += part * scale, the scale chosen per column group by the b_scale block it falls in. SPLIT is
// the tile's first column in the second block (block boundaries are multiples of 16 columns), a
// compile-time constant so that each column's scale is known to the compiler: 4 FFMA per 8 columns
// and nothing else. With the split at run time ptxas emitted a compare, a select and two multiplies
// per 8 columns beside the 4 FFMAs: 100 of the 276 instructions a math warp issued per k-block
// (ncu source counters, 2112x7168 M = 4096, 2026-11-30), on the path both warpgroups run in step.
template <int BN, int SPLIT>
__device__ __forceinline__ void promote_at(float (&acc)[BN / 2], const float (&part)[BN / 2], const KScales& k) {
#pragma unroll
  for (int j = 0; j < BN / 8; ++j) {
    const int col = 8 * j;
    const int b = col < SPLIT ? 0 : (col < SPLIT + 128 ? 1 : 2);
    acc[4 * j + 0] = fmaf(part[4 * j + 0], k.s[0][b], acc[4 * j + 0]);
    acc[4 * j + 1] = fmaf(part[4 * j + 1], k.s[0][b], acc[4 * j + 1]);
    acc[4 * j + 2] = fmaf(part[4 * j + 2], k.s[1][b], acc[4 * j + 2]);
    acc[4 * j + 3] = fmaf(part[4 * j + 3], k.s[1][b], acc[4 * j + 3]);
  }
}

// The split takes 128 / tiled_scale_step(BN) values (1 for BN = 128, 2 for 64 and 192, at most 8):
// one warp-uniform branch per k-block picks the instantiation.

template <int BN, int... I>
__device__ __forceinline__ void promote_split(float (&acc)[BN / 2], const float (&part)[BN / 2], const KScales& k,
                                              int split, std::integer_sequence<int, I...>) {
  constexpr int kStep = tiled_scale_step(BN);
  ((split == 128 - I * kStep ? promote_at<BN, 128 - I * kStep>(acc, part, k) : void()), ...);
}

template <int BN>
__device__ __forceinline__ void promote(float (&acc)[BN / 2], float (&part)[BN / 2], const KScales& k, int split) {
  ptx::fence_regs(part);
  promote_split<BN>(acc, part, k, split, std::make_integer_sequence<int, 128 / tiled_scale_step(BN)>{});
}

// The math warpgroups. Warpgroup wg owns tokens TM/2 wg .. TM/2 (wg + 1) - 1 of the tile, as kSubs = TM / 128
// wgmma tiles of 64; in each, thread (warp w, lane l) owns rows 16 w + l/4 (+8) and columns
// 8 j + 2 (l % 4) + {0, 1}: wgmma's accumulator layout, acc[sub][4 j + 2 h + e] = (row + 8 h, column
// 8 j + 2 (l % 4) + e).
//
// Per k-block: wait for the stage, then for each 64-token sub-tile take the issue turn, issue, wait,
// (after the last one) release the stage, promote. One partial serves every sub-tile: the wide tile
// issues its second sub-tile once the first is promoted, while the other warpgroup's runs.
//
// The 128-token instances compile to the same SASS as before the wide tile came (39fd206: checked
// instruction for instruction with cuobjdump, all 18). Keep it so when touching the epilogue or the
// producers: an earlier form of this change, equal in PTX but for the order of a few integer ops
// (the epilogue's row passed in from here, the scale producers' first row computed in one sum),
// moved ptxas's register allocation and the promotion's FFMA order, and ran 1.02-1.07x the time at
// M = 1024-4096 (s35 call 5, processes alternated).
// The turns: warpgroup 1 issues k-block i after warpgroup 0 has, and warpgroup 0 issues i + 1 after
// warpgroup 1 has issued i, so that the tensor core runs one warpgroup's k-block while the other
// promotes (issued together, the two k-blocks' wgmmas interleave, finish together, and both
// warpgroups promote while the tensor core idles). Measured on the H200 against issuing freely:
// 0.94-0.97x at one tile an SM (7168x16384, M = 256-512), 0.96-1.06x elsewhere; with stage-0
// descriptors hoisted and the turns left out, those two points ran 1.19-1.25x slower.
// (Also measured and removed: two half-width wgmma groups per k-block, one promoted while the other
// ran, 1.2-1.3x slower at M >= 4096 (2026-11-29); warpgroup 1 one k-block late once (STAGGER), or
// k-block i + 1 issued before i is promoted (PIPELINE), 0.96-1.05x (logs/2026-11-30-c837e91).)
template <int TM, int BN, bool kSplit, bool k2D>
__device__ __forceinline__ void consume(const CUtensorMap* map_c, const Params& p, uint8_t* smem, uint8_t* out,
                                        const float* scales, uint64_t* full, uint64_t* empty) {
  using L = Layout<TM, BN>;
  constexpr int kSubs = TM / 128;  // 64-token wgmma tiles a warpgroup
  // Read from lane 0, so that ptxas knows it is the same in every lane: the A descriptor and the ring
  // position then live in uniform registers, where wgmma reads them. From threadIdx.x / 128 directly,
  // ptxas kept the descriptor in ordinary registers and moved it with R2UR, NOPs covering their latency,
  // before each of the four wgmmas of a k-block, on the path from the issue turn to the tensor core
  // (s26 call 1: ncu put a fifth of the loop's warp samples on R2UR, NOP and UMOV). Slope 852 -> 778
  // cycles a k-block at 128 rows, 1042 -> 945 at 192; 0.93-0.99x at M = 256-4096 (s26 call 2).
  const int wg = __shfl_sync(0xffffffffu, int(threadIdx.x / 128), 0);
  const int tid_wg = threadIdx.x % 128;
  const int lane = threadIdx.x % 32;
  const int row = TM / 2 * wg + 16 * (tid_wg / 32) + lane / 4;  // in sub-tile 0
  const int ctas = cluster_ctas(p);
  const Work w = my_work<kSplit>(p);
  const int rank = w.rank;
  // Lane i < ctas - 1 releases stages to the (i + 1)-th CTA after this one in the cluster, whose
  // producer's multicast also fills this CTA's ring.
  // k2D: the CTAs whose producers fill this ring, the cta_n - 1 others of its place's m (token rows) and the
  // other of its n (weight rows).
  uint32_t peer_empty;
  if constexpr (k2D) {
    const int rm = rank & 1, rn = rank >> 1;  // place_in_cluster<true>
    peer_empty = lane < p.cta_n - 1   ? ptx::map_to_rank(empty, rm + 2 * ((rn + 1 + lane) % p.cta_n))
                 : lane == p.cta_n - 1 ? ptx::map_to_rank(empty, (1 - rm) + 2 * rn)
                                       : 0;
  } else {
    peer_empty = lane < ctas - 1 ? ptx::map_to_rank(empty, (rank + 1 + lane) % ctas) : 0;
  }
  uint8_t* my_out = out + wg * L::kOutWg;
  float acc[kSubs][BN / 2], part[BN / 2];
  MathPos pos;
  pos.desc_a = ptx::wgmma_desc_k128_sw128(smem + wg * (TM / 2) * kKBlockBytes);
  pos.sa = scales + row;
  pos.peer = peer_empty;
  bool first_issue = true;
  for (int64_t u = w.u0; u < p.units; u += w.du) {
    const Tile tile = tile_at<TM, BN, k2D>(u, p, rank);
    const int split = 128 - tile.n0 % 128;
#pragma unroll
    for (int sub = 0; sub < kSubs; ++sub)
#pragma unroll
      for (int i = 0; i < BN / 2; ++i) acc[sub][i] = 0.f;
    // Pipelined by one step, in the order cuBLASLt's kernel uses: while k-block kb's wgmmas run, its
    // scales are read and k-block kb + 1's stage is waited for, so that after the group completes
    // only the release, the promotion and the next issue stand between one k-block's tensor work and
    // the next. Measured 0.90-1.02x (16 of 20 points faster, M = 256-8192; 2026-11-30, s7-ab).
    // The turn alternates per wgmma group: with kSubs = 2, (kb, 0) of warpgroup 0, (kb, 0) of 1,
    // (kb, 1) of 0, (kb, 1) of 1, (kb + 1, 0) of 0, ...
    auto issue = [&](const MathPos& at, int sub) {
      if (wg == 1) ptx::named_barrier(kTurnOf1, 256);
      else if (!first_issue) ptx::named_barrier(kTurnOf0, 256);
      first_issue = false;
      issue_kblock<TM, BN>(part, smem + at.stage * L::kStage, ptx::desc_advance(at.desc_a, sub * 64 * kKBlockBytes));
      ptx::named_barrier_arrive(wg == 0 ? kTurnOf1 : kTurnOf0, 256);
    };
    MathPos cur = pos;  // the stage being consumed
    ptx::mbar_wait(&full[cur.stage], cur.phase);
    BLOCKFP8_MARK(3, threadIdx.x == 0 && u == w.u0);  // the first stage landed (wg0)
    issue(cur, 0);
    pos.template advance<TM, BN>(p.stages);
    for (int kb = w.kb0; kb < w.kb1; ++kb) {
      const bool more = kb + 1 < w.kb1;
#pragma unroll
      for (int sub = 0; sub < kSubs; ++sub) {
        const bool last = sub + 1 == kSubs;
        const KScales k(cur.sa + 64 * sub, scales + cur.stage * kScalePitch<TM> + TM);
        if (last && more) ptx::mbar_wait(&full[pos.stage], pos.phase);
        ptx::wgmma_wait<0>();
        if (last) {
          // Computed, and this thread's scales read: the producers may refill it. Every thread arrives
          // here (one arrival a warp after __syncwarp is as sound under the PTX memory model, but
          // racecheck reports the other lanes' scale reads against the next cp.async). A cluster
          // peer's multicast into this CTA waits for one arrival a warp here, made there.
          ptx::mbar_arrive(&empty[cur.stage]);
          if (ctas > 1) {
            __syncwarp();
            if (cur.peer) ptx::mbar_arrive_cluster(cur.peer);
          }
        }
        promote<BN>(acc[sub], part, k, split);
        if (!last) {
          issue(cur, sub + 1);
        } else if (more) {
          cur = pos;
          issue(cur, 0);
          pos.template advance<TM, BN>(p.stages);
        }
      }
    }
    BLOCKFP8_MARK(4, threadIdx.x == 0);  // this tile's math done (wg0; the last tile's stays)
    if constexpr (kSplit) {
      // One tile a cluster: every stage of the ring has been consumed, so once both warpgroups are
      // done with their last wgmmas the ring holds this CTA's partial tile for the others to read.
      ptx::named_barrier(kSplitParked, 256);
      static_assert(!kSplit || kSubs == 1, "split-K runs 128-token tiles");
      park_partial<BN>(reinterpret_cast<float*>(smem), acc[0], row, lane);
      BLOCKFP8_MARK(9, threadIdx.x == 0);  // parked
      ptx::cluster_arrive();
      ptx::cluster_wait();
      BLOCKFP8_MARK(5, threadIdx.x == 0);  // every rank parked
      reduce_split_store<BN>(reinterpret_cast<const float*>(smem), p, tile, threadIdx.x);
    } else {
      if (p.tma_store) {
        store_tile_tma<TM, BN>(acc, map_c, p, my_out, tile, wg, tid_wg);
      } else {
#pragma unroll
        for (int sub = 0; sub < kSubs; ++sub) store_tile_direct<BN>(acc[sub], p, tile, TM / 2 * wg + 64 * sub, tid_wg);
      }
    }
    BLOCKFP8_MARK(6, threadIdx.x == 0);  // this tile's stores issued (thread 0's)
  }
  // Warpgroup 1's last turn signal has no k-block after it: take it, so no arrival is left pending.
  if (wg == 0 && !first_issue) ptx::named_barrier(kTurnOf0, 256);
  // Shared memory must outlive the last TMA store's reads.
  if (!kSplit && p.tma_store && tid_wg == 0) ptx::bulk_wait_group<0>();
}

template <int TM, int BN, bool kSplit, bool k2D = false>
__global__ void __launch_bounds__(kThreads, 1)
    tiled_gemm_kernel(const __grid_constant__ CUtensorMap tmap_a, const __grid_constant__ CUtensorMap tmap_b,
                      const __grid_constant__ CUtensorMap tmap_c, const Params p,
                      const __grid_constant__ CUtensorMap tmap_a_tail, const __grid_constant__ CUtensorMap tmap_b_tail,
                      const __grid_constant__ CUtensorMap tmap_sa) {
  using L = Layout<TM, BN>;
  BLOCKFP8_MARK(0, threadIdx.x == 0);  // entry
  extern __shared__ uint8_t smem_raw[];
  uint8_t* smem = ptx::align_smem_1024(smem_raw);
  uint8_t* out = smem + p.stages * L::kStage;
  float* scales = reinterpret_cast<float*>(out + 2 * L::kOutWg);
  uint64_t* full = reinterpret_cast<uint64_t*>(scales + p.stages * kScalePitch<TM>);
  uint64_t* empty = full + p.stages;

  // The TMA descriptors first (kernel parameters: no wait needed): their fetch then overlaps the
  // barrier set-up and the wait for the preceding grid. Fetched where the producer first uses them, the
  // first stage went out 1.6 us after that wait (s13 call 14, 2112x7168 M = 128, split 8).
  if (threadIdx.x == kMathThreads) {
    ptx::prefetch_tensormap(&tmap_a);
    ptx::prefetch_tensormap(&tmap_b);
    if (p.m % (TM / p.cta_n)) ptx::prefetch_tensormap(&tmap_a_tail);
    if (p.n % (BN / p.cta_m)) ptx::prefetch_tensormap(&tmap_b_tail);
    if (p.scale_route == kScalesTmaA) ptx::prefetch_tensormap(&tmap_sa);
  }
  if (threadIdx.x == 0) {
    for (int s = 0; s < p.stages; ++s) {
      ptx::mbar_init(&full[s], kFullArrivals<TM>);
      // Every math thread of this CTA, and one arrival per math warp of each other CTA of the cluster.
      // (k2D: the CTAs this one's producer multicasts to, cta_n - 1 + cta_m - 1 of them.)
      const int peers = k2D ? p.cta_n + p.cta_m - 2 : cluster_ctas(p) - 1;
      ptx::mbar_init(&empty[s], kMathThreads + peers * (kMathThreads / 32));
    }
    ptx::fence_barrier_init();
  }
  BLOCKFP8_MARK(14, threadIdx.x == 0);  // thread 0's barriers initialised
  // A cluster's barriers must be initialised in every CTA before any producer multicasts.
  if (cluster_ctas(p) > 1 || kSplit) {
    ptx::cluster_arrive();
    ptx::cluster_wait();
  } else {
    __syncthreads();
  }
  BLOCKFP8_MARK(15, threadIdx.x == 0);  // the CTA's (cluster's) barrier after the set-up passed
  // Launched with programmatic dependent launch: the next kernel in the stream may launch now, and
  // this one's prologue above ran while the preceding kernel finished. Nothing before this wait
  // touches memory that kernel may write (A, B, the scales, C).
  ptx::launch_dependents();
  ptx::grid_dependency_wait();
  BLOCKFP8_MARK(1, threadIdx.x == 0);  // barriers initialised, the preceding grid done

  if (threadIdx.x >= kMathThreads) {
    ptx::setmaxnreg_dec<kSplit ? kSplitProducerRegs : kProducerRegs>();
    BLOCKFP8_MARK(10, threadIdx.x == kMathThreads);  // the TMA thread past setmaxnreg
    if (threadIdx.x == kMathThreads) {
      produce_tiles<TM, BN, kSplit, k2D>({&tmap_a, &tmap_a_tail, &tmap_b, &tmap_b_tail, &tmap_sa}, p, smem, scales, full,
                                    empty);
    } else if (threadIdx.x / 32 == kMathThreads / 32 + 1) {
      produce_scale_slice<TM, BN, kSplit, k2D, 0>(p, scales, full, empty, threadIdx.x % 32);
    } else if (threadIdx.x / 32 == kMathThreads / 32 + 2) {  // (an empty call where the tile has one)
      produce_scale_slice<TM, BN, kSplit, k2D, 1>(p, scales, full, empty, threadIdx.x % 32);
    }
    if constexpr (kSplit) {  // the math warpgroups' barrier after parking (consume)
      ptx::cluster_arrive();
      ptx::cluster_wait();
    }
  } else {
    ptx::setmaxnreg_inc<kMathRegs>();
    BLOCKFP8_MARK(13, threadIdx.x == 0);  // math thread 0 past setmaxnreg
    consume<TM, BN, kSplit, k2D>(&tmap_c, p, smem, out, scales, full, empty);
  }
  if constexpr (kSplit) {
    // Every CTA's shared memory stays until the other ranks have read its partial. Relaxed: a
    // thread's remote reads are complete once their sum was stored.
    ptx::cluster_arrive_relaxed();
    ptx::cluster_wait();
  }
  BLOCKFP8_MARK(7, threadIdx.x == 0);  // exit
}

// ------------------------------------------------------------------------------------------------
// Host side.

// A row-major [rows][cols] matrix (row stride ld_bytes) read or written as [box_rows][box_cols] boxes.
TileMapSpec tile_map(const void* base, CUtensorMapDataType type, int64_t rows, int64_t cols, int64_t ld_bytes,
                     int box_cols, int box_rows, CUtensorMapSwizzle swizzle) {
  TileMapSpec s;
  s.base = base, s.type = type, s.rows = rows, s.cols = cols, s.ld_bytes = ld_bytes;
  s.box_cols = box_cols, s.box_rows = box_rows, s.swizzle = swizzle;
  return s;
}

// bf16 / fp16 output the TMA engine can write: 16-byte aligned base and row stride, and rows a
// whole number of 16-byte units long. The engine clips a store's last columns only to 16 bytes: with
// N % 8 != 0 it wrote up to the next 16-byte boundary, into the row padding (the fuzzer caught it:
// N = 3, ldc = 8 wrote columns 3..7).
bool tma_store_compatible(const Problem& p) {
  if (p.c_dtype == BLOCKFP8_DTYPE_FP32) return false;
  return (reinterpret_cast<uintptr_t>(p.c) & 15u) == 0 && (p.ldc * 2) % 16 == 0 && (p.n * 2) % 16 == 0;
}

template <int TM, int BN, bool kSplit, bool k2D = false>
cudaError_t prepare(int smem_bytes) {
  static std::atomic<int> raised[kMaxDevices];
  return raise_smem_limit(tiled_gemm_kernel<TM, BN, kSplit, k2D>, raised, smem_bytes);
}

// The 2-D clusters' instances: both token tiles (128 and 256) at kTiled2dClusterRows rows (check_tiled_config).
template <int BN>
constexpr bool kHas2d = BN == kTiled2dClusterRows;

template <int TM, int BN>
blockfp8_status_t launch(const Problem& p, const blockfp8_config_t& cfg, const DeviceInfo& dev, cudaStream_t stream) {
  constexpr bool kCanSplit = TM == kSplitTokens;  // (no split-K instance of the wide tile)
  const int smem = tiled_smem_bytes(BN, cfg.stages, TM);
  const bool split = cfg.split_k > 1;  // check_tiled_config: no multicast cluster, one unit a cluster
  const bool two_d = cfg.cluster_m > 1 && cfg.cluster_n > 1;
  if ((split && !kCanSplit) || (two_d && !kHas2d<BN>)) return BLOCKFP8_ERROR_INVALID_CONFIG;
  const cudaError_t prepared = split   ? prepare<TM, BN, kCanSplit>(smem)
                               : two_d ? prepare<TM, BN, false, kHas2d<BN>>(smem)
                                       : prepare<TM, BN, false>(smem);
  if (prepared != cudaSuccess) return BLOCKFP8_ERROR_CUDA;

  Params prm{};
  prm.m = int(p.m), prm.n = int(p.n), prm.kb_total = int(p.k_blocks());
  prm.m_tiles = int((p.m + TM - 1) / TM);
  prm.n_tiles = int((p.n + BN - 1) / BN);
  prm.cta_m = cfg.cluster_m, prm.cta_n = cfg.cluster_n;  // check_tiled_config: a shape the device holds
  prm.m_units = (prm.m_tiles + prm.cta_m - 1) / prm.cta_m;
  prm.n_units = (prm.n_tiles + prm.cta_n - 1) / prm.cta_n;
  prm.units = int64_t(prm.m_units) * prm.n_units;
  const int ctas = prm.cta_m * prm.cta_n;
  prm.a_scale = p.a_scale, prm.sa_m = p.a_scale_stride_m, prm.sa_k = p.a_scale_stride_k;
  prm.b_scale = p.b_scale, prm.sb_n = p.b_scale_stride_n, prm.sb_k = p.b_scale_stride_k;
  prm.c = p.c, prm.ldc = p.ldc, prm.c_dtype = p.c_dtype;
  prm.stages = cfg.stages;
  prm.tma_store = !split && tma_store_compatible(p);  // split-K ranks store their rows directly
  prm.k_split = cfg.split_k;

  CUtensorMap map_a, map_a_tail, map_b, map_b_tail, map_c{}, map_sa{};
  constexpr auto kFp8 = CU_TENSOR_MAP_DATA_TYPE_UINT8;
  const int a_rows = TM / prm.cta_n, b_rows = BN / prm.cta_m;
  const int a_tail_rows = int(p.m % a_rows), b_tail_rows = int(p.n % b_rows);
  // An operand's map with `rows`-row boxes (swizzled 128-byte rows: one k-block of fp8).
  auto operand = [&](CUtensorMap* map, const void* base, int64_t total_rows, int64_t ld, int rows) {
    return cached_tile_map(map, tile_map(base, kFp8, total_rows, p.k, ld, kKBlockBytes, rows, CU_TENSOR_MAP_SWIZZLE_128B));
  };
  if (!operand(&map_a, p.a, p.m, p.lda, a_rows) || !operand(&map_b, p.b, p.n, p.ldb, b_rows) ||
      (a_tail_rows && !operand(&map_a_tail, p.a, p.m, p.lda, a_tail_rows)) ||
      (b_tail_rows && !operand(&map_b_tail, p.b, p.n, p.ldb, b_tail_rows)))
    return BLOCKFP8_ERROR_CUDA;
  if (!a_tail_rows) map_a_tail = map_a;
  if (!b_tail_rows) map_b_tail = map_b;
  if (prm.tma_store) {
    const CUtensorMapDataType type =
        p.c_dtype == BLOCKFP8_DTYPE_BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    if (!cached_tile_map(&map_c, tile_map(p.c, type, p.m, p.n, p.ldc * 2, kOutCols, 64, CU_TENSOR_MAP_SWIZZLE_32B)))
      return BLOCKFP8_ERROR_CUDA;
  }

  // The scales' route (tiled_scale_route). Column-major a_scales by TMA, one 512-byte request a k-block
  // instead of the scale warp's 128 four-byte copies (s17 calls 2-3, one tile an SM): 1040-1048 cycles
  // a k-block at 192 rows against 1185-1186 with the copies (no scale copies at all: 1041), 846-848
  // against 920-923 at 128; 0.93-0.95x the time at M = 4096. Row-major scales by 16-byte loads of four
  // k-blocks (s17 call 9): 1095 against 1136, 0.94-1.00x at M = 256-4096. BLOCKFP8_TILED_SA_TMA=0 and
  // BLOCKFP8_TILED_SCALE_ROWS=0 turn the two off (diagnostic switches, for A/B); where the column-major
  // tensor map does not encode, the route is chosen again without TMA.
  {
    static const bool tma_enabled = env_switch("BLOCKFP8_TILED_SA_TMA", true);
    static const bool rows_enabled = env_switch("BLOCKFP8_TILED_SCALE_ROWS", true);
    TiledScaleRoute route = tiled_scale_route(p, split, tma_enabled);
    if (route == kScalesTmaA) {
      if (!cached_tile_map(&map_sa, tile_map(p.a_scale, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, p.k_blocks(), p.m,
                                             tiled_scale_map_ld(p) * 4, TM, 1, CU_TENSOR_MAP_SWIZZLE_NONE)))
        route = tiled_scale_route(p, split, /*tma=*/false);
    }
    if (route == kScalesRows && !rows_enabled) route = kScalesCopied;
    prm.scale_route = route;
  }

  // Persistent: as many clusters as the device holds at once (one CTA an SM), or one per unit.
  // Split-K: a cluster of split_k CTAs per unit, all resident at once (check_tiled_config).
  const int cluster = split ? cfg.split_k : ctas;
  const int resident = cluster > 1 ? dev.max_clusters[cluster] : std::max(dev.sm_count, 1);
  if (split && prm.units > resident) return BLOCKFP8_ERROR_INVALID_CONFIG;
  const dim3 grid(unsigned(std::min<int64_t>(prm.units, resident) * cluster));
  cudaLaunchAttribute attr[2];
  const cudaLaunchConfig_t lc = launch_config(attr, cluster, grid, kThreads, smem, stream, /*cluster_attr=*/cluster > 1);
  const cudaError_t e =
      split   ? cudaLaunchKernelEx(&lc, tiled_gemm_kernel<TM, BN, kCanSplit>, map_a, map_b, map_c, prm, map_a_tail,
                                   map_b_tail, map_sa)
      : two_d ? cudaLaunchKernelEx(&lc, tiled_gemm_kernel<TM, BN, false, kHas2d<BN>>, map_a, map_b, map_c, prm,
                                   map_a_tail, map_b_tail, map_sa)
              : cudaLaunchKernelEx(&lc, tiled_gemm_kernel<TM, BN, false>, map_a, map_b, map_c, prm, map_a_tail,
                                   map_b_tail, map_sa);
  return e == cudaSuccess ? BLOCKFP8_SUCCESS : BLOCKFP8_ERROR_CUDA;
}

}  // namespace

#ifdef BLOCKFP8_TIMELINE
int read_tiled_timeline(unsigned long long* host, int ctas) { return copy_timeline(g_timeline, host, ctas); }
#endif

blockfp8_status_t launch_tiled_gemm(const Problem& p, const blockfp8_config_t& cfg, const DeviceInfo& dev,
                                    cudaStream_t stream) {
  // cfg has passed check_tiled_config and p the TMA alignment rule (api.cpp).
  constexpr int T = kTiledTokenTile;
  if (cfg.token_tile == kTiledWideTokenTile) {
    constexpr int W = kTiledWideTokenTile;
    switch (cfg.weight_rows) {
      case 96: return launch<W, 96>(p, cfg, dev, stream);
      case 112: return launch<W, 112>(p, cfg, dev, stream);
      case 128: return launch<W, 128>(p, cfg, dev, stream);
      default: return BLOCKFP8_ERROR_INVALID_CONFIG;
    }
  }
  if (cfg.token_tile != T) return BLOCKFP8_ERROR_INVALID_CONFIG;
  switch (cfg.weight_rows) {
    case 64: return launch<T, 64>(p, cfg, dev, stream);
    case 80: return launch<T, 80>(p, cfg, dev, stream);
    case 96: return launch<T, 96>(p, cfg, dev, stream);
    case 112: return launch<T, 112>(p, cfg, dev, stream);
    case 128: return launch<T, 128>(p, cfg, dev, stream);
    case 144: return launch<T, 144>(p, cfg, dev, stream);
    case 160: return launch<T, 160>(p, cfg, dev, stream);
    case 176: return launch<T, 176>(p, cfg, dev, stream);
    case 192: return launch<T, 192>(p, cfg, dev, stream);
    default: return BLOCKFP8_ERROR_INVALID_CONFIG;
  }
}

}  // namespace blockfp8::detail
