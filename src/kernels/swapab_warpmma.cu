// Decode at a few tokens: every thread streams its share of a weight strip through its own cp.async
// ring in shared memory, and the warp multiplies it with the tokens in the warp-level fp8 MMA
// (mma.sync m16n8k32). No TMA, no mbarrier, no producer warp, no barrier in the main loop.
//
// Why a second decode kernel. At M <= 8 the TMA kernel (swapab_splitk.cu) streams at the floor's
// rate but pays ~1.6 us before its first stage lands and ~1.5 us of split-K tail (cluster barriers,
// DSMEM) around it (docs/decode-kernel-notes.md). Here a CTA owns a strip of 16 or 32 weight rows
// over all of K (or a cluster rank's share), its warps take interleaved k-blocks (each strip starting
// at its own place in K: warpmma_walk_start), and each thread keeps `S` k-blocks of its own copies in
// flight, like the streaming-floor kernel keeps its loads: the first bytes are requested right after
// launch, and the reduction is across one CTA's warps.
//
// The layout trick. A dot product does not care in which order k runs, as long as both operands use
// the same order. So lane (g, t) = (lane / 4, lane % 4) copies 16 contiguous bytes of weight row g at
// k-block offsets 16t and 64 + 16t (four lanes cover a 128-byte row: coalesced), the same for row
// g + 8, and the same offsets of token g's activations, plus the scales its accumulators need; these
// fill its fragment slots of four m16n8k32 MMAs, in the same order for A and B. A thread reads back
// only what it copied itself, so cp.async.wait_group alone orders the ring: no warp or CTA barrier.
//
// Tokens sit on the MMA's N side (8 a fragment), weight rows on its M side (16): Cᵀ = B·Aᵀ, swap-AB.
// On sm_90 ptxas lowers the fp8 mma.sync to two HMMA.16816.F32 after e4m3 -> f16x2 conversions
// (exact: e4m3 is a subset of f16); at a few tokens the tensor work is a rounding error.
//
// Where it runs (choose_warpmma_config, dispatch.h): at M <= 8 where its strips fill one round of SMs,
// split over a cluster where there are too few strips for that, and at M <= 4 where there are many
// more strips than SMs (several CTAs an SM). At M >= 16 the TMA kernel wins (every strip re-reads the
// tokens: s11 calls 2-3, s14 call 3). kFused: blockfp8_gemm_bf16a in one launch.
#include <cuda_bf16.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>

#include "kernels/host_support.h"
#include "kernels/launch.h"
#include "kernels/ptx.cuh"
#include "kernels/quant_math.cuh"
#include "kernels/store_out.cuh"
#include "kernels/timeline.cuh"

namespace blockfp8::detail {
namespace {

#ifdef BLOCKFP8_TIMELINE
__device__ TimelineRows g_timeline;  // kernels/timeline.cuh; read by read_warpmma_timeline
#endif

constexpr int kFragRows = 16;   // mma m16n8k32: weight rows of one fragment
constexpr int kFragTokens = 8;  // its N: tokens of one fragment

struct Params {
  int m, n, kb_total;
  int kb_slice;  // k-blocks per cluster rank (split 1: kb_total)
  int split;
  const uint8_t* a;
  int64_t lda;
  const float* a_scale;
  int64_t sa_m, sa_k;
  const uint8_t* b;
  int64_t ldb;
  const float* b_scale;
  int64_t sb_n, sb_k;
  void* c;
  int64_t ldc;
  int c_dtype;
  // The fused A side (kFused): bf16 activations X [m][ldx], quantised by each CTA for its K slice.
  const __nv_bfloat16* x;
  int64_t ldx;
  bool ue8m0;
  bool rotate;  // staggered K walks (see kb_at)
};

// kFused: the CTA's tokens over its K slice, quantised once into shared memory as
// blockfp8_quantize_1x128 does (quant_math.cuh: same formula, same bytes, same scales): rows of
// kb_count x 128 bytes plus 16 (the pad puts token g's chunk t in banks 4g + 4t.., not all on 4t..),
// and a [token][k-block] table of scales. Tokens past M are zeros with scale 0, as the GEMM's copies
// would read them. A half-warp owns a group of 128 (lane `sub` holds elements 8 sub .. 8 sub + 7),
// and the whole slice is one pass of kWarpMmaFusedLoads loads a thread (warpmma_fused_ok), issued
// before the weight copies: issued after them, the X loads came back behind a ring-full of weight and
// the stream stalled while the CTA quantised (s11 call 5: 2112x7168 M = 1 one launch 8.80 us against
// 8.82 for quantiser + GEMM).
template <int kTokens>
struct TokenSlice {
  uint4 raw[kWarpMmaFusedLoads];
  int groups, kb_count;

  __device__ __forceinline__ void load(const Params& p, int tok0, int kb_first, int kb_count_) {
    kb_count = kb_count_;
    groups = max(0, min(kTokens, p.m - tok0)) * kb_count;
    const int sub = threadIdx.x % 16, half = threadIdx.x / 16, halves = blockDim.x / 16;
#pragma unroll
    for (int u = 0; u < kWarpMmaFusedLoads; ++u) {
      const int grp = half + u * halves;
      raw[u] = make_uint4(0, 0, 0, 0);
      if (grp < groups) {
        const int tok = grp / kb_count, j = grp - tok * kb_count;
        raw[u] = __ldg(reinterpret_cast<const uint4*>(p.x + int64_t(tok0 + tok) * p.ldx + int64_t(kb_first + j) * 128) + sub);
      }
    }
  }

  __device__ __forceinline__ void quantize(uint8_t* xq, float* xs, bool ue8m0) const {
    const int pitch = kb_count * 128 + 16;
    const int sub = threadIdx.x % 16, half = threadIdx.x / 16, halves = blockDim.x / 16;
    // A warp's two half-warps take groups h and h + 1: `pair` (the even one) >= groups means both are
    // past the end, so the exits below are warp-uniform (the shuffles need the whole warp).
    const int pair = half - half % 2;
#pragma unroll
    for (int u = 0; u < kWarpMmaFusedLoads; ++u) {
      const int grp = half + u * halves;
      if (pair + u * halves >= groups) continue;  // warp-uniform
      uint32_t packed[2];
      const float sc = quantize_bf16_group(raw[u], ue8m0, packed);
      if (grp >= groups) continue;  // uniform across the half-warp, after the shuffles
      const int tok = grp / kb_count, j = grp - tok * kb_count;
      *reinterpret_cast<uint2*>(xq + tok * pitch + j * 128 + sub * 8) = make_uint2(packed[0], packed[1]);
      if (sub == 0) xs[tok * kb_count + j] = sc;
    }
    const int live = groups / max(kb_count, 1);
    for (int i = live * (pitch / 16) + threadIdx.x; i < kTokens * (pitch / 16); i += blockDim.x)
      reinterpret_cast<uint4*>(xq)[i] = make_uint4(0, 0, 0, 0);
    for (int i = live * kb_count + threadIdx.x; i < kTokens * kb_count; i += blockDim.x) xs[i] = 0.f;
  }
};

// NT token fragments (token tile 8 NT), RT row fragments (weight rows 16 RT), S k-blocks in flight per
// thread; kFused: A is quantised from X inside the kernel (one token tile). Grid: x = row strip x
// split (a cluster's ranks are consecutive), y = token tile.
template <int NT, int RT, int S, bool kFused>
__global__ void __launch_bounds__(warpmma_max_warps(kFragTokens * NT) * 32, 1)
    swapab_warpmma_kernel(const Params p) {
  // Ring slot layout, per lane: 16-byte chunks (weight rows g and g + 8 of each fragment, two each;
  // then, unless kFused, token g of each fragment, two), then the b_scale and (unless kFused) the
  // a_scales of tokens 2t, 2t + 1 of each fragment. Lane-major (chunk c of lane l at (32 c + l) x 16),
  // so a warp's read of one chunk is 512 contiguous bytes: no bank conflicts. kFused: the tokens
  // and their scales sit in shared memory after the rings for the whole K slice.
  extern __shared__ __align__(16) uint8_t smem[];
  constexpr int kRows = kFragRows * RT, kTokens = kFragTokens * NT;
  constexpr int kWChunks = 4 * RT, kChunks = kWChunks + (kFused ? 0 : 2 * NT);
  constexpr int kSlot = warpmma_slot_bytes(kTokens, kRows, kFused);
  const int warps = blockDim.x / 32, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4;
  const int rank = blockIdx.x % p.split;  // == %cluster_ctarank: the cluster spans consecutive x
  const int row0 = blockIdx.x / p.split * kRows;
  const int tok0 = blockIdx.y * kTokens;
  const int kb_first = rank * p.kb_slice, kb_end = min(p.kb_total, kb_first + p.kb_slice);
  const int kb_count = max(0, kb_end - kb_first);
  const int nkb = warpmma_warp_kblocks(warp, warps, kb_count);  // this warp's k-blocks
  // With p.rotate the strips start their walks at staggered k-blocks (warpmma_walk_start): in
  // lockstep every CTA would ask for the same token rows and weight columns at once. Deterministic:
  // the order depends on the strip, not on M or the run.
  const int rot = p.rotate ? warpmma_walk_start(blockIdx.x / p.split, gridDim.x / p.split, kb_count) : 0;
  auto kb_at = [&](int i) { return kb_first + warpmma_walk_kblock(warp, warps, i, rot, kb_count); };

  // This lane's weight rows are g + 8 h of each fragment, its tokens g of each fragment, its scales
  // those of tokens 2t and 2t + 1. Past N or M a copy writes zeros and reads nothing (its address is
  // clamped to a valid one all the same). A strip never straddles a b_scale block: 16 RT divides 128.
  const int64_t ldb = p.ldb, lda = p.lda;
  const uint8_t* wlane = p.b + 16 * t;
  const uint8_t* alane = p.a + 16 * t;
  const float* bs = p.b_scale + int64_t(row0 / 128) * p.sb_n;
  uint8_t* ring = smem + (warp * S) * kSlot;
  const uint32_t ring_s = ptx::smem_addr(ring) + lane * 16;
  uint8_t* xq = smem + warps * S * kSlot;                         // kFused: [token][kb_count x 128 + 16]
  float* xs = reinterpret_cast<float*>(xq + kTokens * (kb_count * 128 + 16));  // kFused: [token][kb]

  // Copy k-block `kb` (this lane's share) into slot `slot`.
  auto issue = [&](int kb, int slot) {
    const uint32_t dst = ring_s + slot * kSlot;
#pragma unroll
    for (int r = 0; r < RT; ++r)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int row = row0 + r * kFragRows + 8 * h + g;
        const uint8_t* src = wlane + int64_t(row < p.n ? row : 0) * ldb + kb * 128;
#pragma unroll
        for (int q = 0; q < 2; ++q) ptx::cp_async_16(dst + ((r * 2 + h) * 2 + q) * 512, src + 64 * q, row < p.n);
      }
    float* sc = reinterpret_cast<float*>(ring + slot * kSlot + kChunks * 512) + lane;
    ptx::cp_async_4(sc, bs + kb * p.sb_k, true);
    if constexpr (!kFused) {
#pragma unroll
      for (int j = 0; j < NT; ++j) {
        const int tok = tok0 + j * kFragTokens + g;
        const uint8_t* src = alane + int64_t(tok < p.m ? tok : 0) * lda + kb * 128;
#pragma unroll
        for (int q = 0; q < 2; ++q) ptx::cp_async_16(dst + (kWChunks + j * 2 + q) * 512, src + 64 * q, tok < p.m);
      }
#pragma unroll
      for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          const int tok = tok0 + j * kFragTokens + 2 * t + e;
          ptx::cp_async_4(sc + (1 + 2 * j + e) * 32, p.a_scale + int64_t(tok < p.m ? tok : 0) * p.sa_m + kb * p.sa_k,
                          tok < p.m);
        }
    }
  };

  BLOCKFP8_MARK(0, threadIdx.x == 0);  // entry
  ptx::launch_dependents();
  // Every operand and C may belong to the preceding kernel (PDL): wait before the first copy.
  ptx::grid_dependency_wait();
  BLOCKFP8_MARK(1, threadIdx.x == 0);  // the preceding grid is done
  TokenSlice<kTokens> slice;
  if constexpr (kFused) slice.load(p, tok0, kb_first, kb_count);  // first: see TokenSlice
#pragma unroll
  for (int s = 0; s < S; ++s) {
    if (s < nkb) issue(kb_at(s), s);
    ptx::cp_async_commit();  // one group per slot, empty or not: the wait below counts groups
  }
  BLOCKFP8_MARK(2, threadIdx.x == 0);  // the ring's first copies are issued
  if constexpr (kFused) {  // while the rings fill
    slice.quantize(xq, xs, p.ue8m0);
    __syncthreads();
  }
  float acc[RT][NT][4] = {};
  for (int i = 0; i < nkb; ++i) {
    const int slot = i % S;
    const int kb = kb_at(i);
    ptx::cp_async_wait<S - 1>();  // k-block i's group (this thread's copies) has landed
    BLOCKFP8_MARK(3, threadIdx.x == 0 && i == 0);  // warp 0's first k-block landed
    // The whole slot into registers first, then its refill goes out, then the math: the copies of
    // k-block i + S are in flight while k-block i's MMAs run.
    const uint8_t* src = ring + slot * kSlot + lane * 16;
    const float* sc = reinterpret_cast<const float*>(ring + slot * kSlot + kChunks * 512) + lane;
    const float sb = sc[0];
    uint4 lo[RT][2], hi[RT][2];  // rows g and g + 8 of each fragment: 32 bytes each, k slots in copy order
    uint4 x[NT][2];              // token g of each fragment
    float sa[NT][2];             // the a_scales of tokens 2t and 2t + 1 of each fragment
#pragma unroll
    for (int r = 0; r < RT; ++r)
#pragma unroll
      for (int q = 0; q < 2; ++q) {
        lo[r][q] = *reinterpret_cast<const uint4*>(src + ((r * 2 + 0) * 2 + q) * 512);
        hi[r][q] = *reinterpret_cast<const uint4*>(src + ((r * 2 + 1) * 2 + q) * 512);
      }
#pragma unroll
    for (int j = 0; j < NT; ++j) {
      if constexpr (kFused) {
        const uint8_t* row = xq + (j * kFragTokens + g) * (kb_count * 128 + 16) + (kb - kb_first) * 128 + 16 * t;
        x[j][0] = *reinterpret_cast<const uint4*>(row);
        x[j][1] = *reinterpret_cast<const uint4*>(row + 64);
        sa[j][0] = xs[(j * kFragTokens + 2 * t) * kb_count + kb - kb_first];
        sa[j][1] = xs[(j * kFragTokens + 2 * t + 1) * kb_count + kb - kb_first];
      } else {
#pragma unroll
        for (int q = 0; q < 2; ++q) x[j][q] = *reinterpret_cast<const uint4*>(src + (kWChunks + j * 2 + q) * 512);
        sa[j][0] = sc[(1 + 2 * j) * 32], sa[j][1] = sc[(2 + 2 * j) * 32];
      }
    }
    // The loads above and the copies below touch the same slot: the copies are issued after them in
    // this thread's program order (the "memory" clobber keeps the compiler from hoisting them).
    if (i + S < nkb) issue(kb_at(i + S), slot);
    ptx::cp_async_commit();
#pragma unroll
    for (int r = 0; r < RT; ++r) {
      const uint32_t* a_lo = &lo[r][0].x;
      const uint32_t* a_hi = &hi[r][0].x;
#pragma unroll
      for (int j = 0; j < NT; ++j) {
        const uint32_t* b = &x[j][0].x;
        // Per k-block: four MMAs into a fresh accumulator, then the block scales (as the reference).
        float d[4] = {0.f, 0.f, 0.f, 0.f};
#pragma unroll
        for (int k = 0; k < 4; ++k)
          ptx::mma_m16n8k32_e4m3(d, a_lo[2 * k], a_hi[2 * k], a_lo[2 * k + 1], a_hi[2 * k + 1], b[2 * k], b[2 * k + 1]);
        const float s0 = sb * sa[j][0], s1 = sb * sa[j][1];
        acc[r][j][0] += d[0] * s0, acc[r][j][1] += d[1] * s1;
        acc[r][j][2] += d[2] * s0, acc[r][j][3] += d[3] * s1;
      }
    }
  }
  BLOCKFP8_MARK(4, threadIdx.x == 0);  // warp 0's math done
  __syncthreads();  // every warp is past its ring: the reduction buffer below reuses it
  BLOCKFP8_MARK(5, threadIdx.x == 0);  // every warp's math done
  float* red = reinterpret_cast<float*>(smem);  // [warps][16 RT][8 NT]

  // The warps' partials, summed in warp order (deterministic): red[w][row][token].
#pragma unroll
  for (int r = 0; r < RT; ++r)
#pragma unroll
    for (int j = 0; j < NT; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int row = r * kFragRows + g + (e >= 2 ? 8 : 0), tok = j * kFragTokens + 2 * t + (e & 1);
        red[(warp * kRows + row) * kTokens + tok] = acc[r][j][e];
      }
  __syncthreads();
  BLOCKFP8_MARK(7, threadIdx.x == 0);  // the warps' partials are in shared memory
  float* part = red + warps * kRows * kTokens;  // [16 RT][8 NT]: this CTA's sum (split > 1)
  constexpr int kOut = kRows * kTokens;
  constexpr int kMaxWarps = warpmma_max_warps(kTokens);
  for (int i = threadIdx.x; i < kOut; i += blockDim.x) {
    // All the loads first, then the sum in warp order: one shared-memory latency, not one a warp.
    float v[kMaxWarps];
#pragma unroll
    for (int w2 = 0; w2 < kMaxWarps; ++w2) v[w2] = w2 < warps ? red[w2 * kOut + i] : 0.f;
    float s = 0.f;
#pragma unroll
    for (int w2 = 0; w2 < kMaxWarps; ++w2)
      if (w2 < warps) s += v[w2];
    BLOCKFP8_MARK_AFTER(8, threadIdx.x == 0 && i == 0, __float_as_uint(s));  // thread 0's first sum
    if (p.split > 1) {
      part[i] = s;
    } else {
      const int row = row0 + i / kTokens, tok = tok0 + i % kTokens;
      if (row < p.n && tok < p.m) store_out(p.c, int64_t(tok) * p.ldc + row, s, p.c_dtype);
    }
  }
  if (p.split == 1) {
    BLOCKFP8_MARK(6, threadIdx.x == 0);  // thread 0's stores issued (exit)
    return;
  }

  // Split K: each rank sums a share of the strip over all ranks' partials, in rank order.
  ptx::cluster_arrive();
  ptx::cluster_wait();
  for (int i = rank + p.split * int(threadIdx.x); i < kOut; i += p.split * blockDim.x) {
    float s = 0.f;
    for (int q = 0; q < p.split; ++q) s += ptx::ld_cluster_f32(ptx::map_to_rank(part + i, q));
    const int row = row0 + i / kTokens, tok = tok0 + i % kTokens;
    if (row < p.n && tok < p.m) store_out(p.c, int64_t(tok) * p.ldc + row, s, p.c_dtype);
  }
  // No rank may exit while another still reads its partial.
  ptx::cluster_arrive_relaxed();
  ptx::cluster_wait();
  BLOCKFP8_MARK(6, threadIdx.x == 0);  // exit
}

// One grid: a CTA a strip (x, with its split ranks) and token tile (y).
template <int NT, int RT, int S, bool kFused>
blockfp8_status_t enqueue(Params prm, const blockfp8_config_t& cfg, const DeviceInfo& dev, cudaStream_t stream) {
  const int warps = 4 * cfg.warpgroups;
  // Staggered K walks where the slice outlasts the CTA's rings: 0.955-0.995x on the five long-K shapes
  // the dispatcher gives this kernel at M = 1-8, and 1.015-1.020x on 4096x512, whose 4 k-blocks are
  // all in flight at once (s12 calls 1-2). BLOCKFP8_WARPMMA_ROTATE=0 turns it off (diagnostic).
  static const bool rotate = env_switch("BLOCKFP8_WARPMMA_ROTATE", true);
  prm.rotate = rotate && prm.kb_slice > warps * S;
  const int64_t strips = strip_ctas(prm.n, cfg.weight_rows, 1);
  const int64_t token_tiles = (prm.m + cfg.token_tile - 1) / cfg.token_tile;
  int smem = warpmma_smem_bytes(kFragTokens * NT, kFragRows * RT, S, warps, kFused ? prm.kb_slice : 0);
  // A grid of at most one CTA an SM asks for more than half an SM's shared memory, so that the block
  // scheduler cannot put two on one SM while another idles (measured: 96 CTAs of 110 KB on 1536x7168
  // ran 8.2 us at M = 1, 96 of 221 KB 5.9 us). BLOCKFP8_WARPMMA_SPREAD=0 turns it off (diagnostic).
  static const bool spread = env_switch("BLOCKFP8_WARPMMA_SPREAD", true);
  if (spread && strips * prm.split * token_tiles <= dev.sm_count)
    smem = std::max(smem, std::min(dev.smem_per_block_optin, smem_for_ctas_per_sm(1, dev)));
  static std::atomic<int> raised[kMaxDevices];
  if (smem > 48 * 1024 && raise_smem_limit(swapab_warpmma_kernel<NT, RT, S, kFused>, raised, smem) != cudaSuccess)
    return BLOCKFP8_ERROR_CUDA;
  cudaLaunchAttribute attr[2];
  const cudaLaunchConfig_t lc =
      launch_config(attr, prm.split, dim3(unsigned(strips * prm.split), unsigned(token_tiles)), warps * 32, smem, stream);
  if (cudaLaunchKernelEx(&lc, swapab_warpmma_kernel<NT, RT, S, kFused>, prm) != cudaSuccess) return BLOCKFP8_ERROR_CUDA;
  return BLOCKFP8_SUCCESS;
}

Params make_params(const Problem& p, const blockfp8_config_t& cfg) {
  Params prm{};
  prm.m = int(p.m), prm.n = int(p.n), prm.kb_total = int(p.k_blocks());
  prm.split = cfg.split_k;
  prm.kb_slice = swapab_kb_slice(prm.kb_total, cfg.split_k);
  prm.a = static_cast<const uint8_t*>(p.a), prm.lda = p.lda;
  prm.a_scale = p.a_scale, prm.sa_m = p.a_scale_stride_m, prm.sa_k = p.a_scale_stride_k;
  prm.b = static_cast<const uint8_t*>(p.b), prm.ldb = p.ldb;
  prm.b_scale = p.b_scale, prm.sb_n = p.b_scale_stride_n, prm.sb_k = p.b_scale_stride_k;
  prm.c = p.c, prm.ldc = p.ldc, prm.c_dtype = p.c_dtype;
  return prm;
}

constexpr int instance_key(int token_tile, int weight_rows, int ring) {
  return token_tile * 1000 + weight_rows * 10 + ring;
}

}  // namespace

blockfp8_status_t launch_swapab_warpmma(const Problem& p, const blockfp8_config_t& cfg, const DeviceInfo& dev,
                                        cudaStream_t stream) {
  if (p.m == 0) return BLOCKFP8_SUCCESS;
  const Params prm = make_params(p, cfg);
  switch (instance_key(cfg.token_tile, cfg.weight_rows, cfg.stage_kblocks)) {
#define BLOCKFP8_WARPMMA_CASE(TT, RR, UU) \
  case instance_key(TT, RR, UU): return enqueue<TT / kFragTokens, RR / kFragRows, UU, false>(prm, cfg, dev, stream);
    BLOCKFP8_WARPMMA_CONFIGS(BLOCKFP8_WARPMMA_CASE)
#undef BLOCKFP8_WARPMMA_CASE
    default: return BLOCKFP8_ERROR_INVALID_CONFIG;
  }
}

blockfp8_status_t launch_swapab_warpmma_fused(const Problem& p, const FusedA& x, const blockfp8_config_t& cfg,
                                              const DeviceInfo& dev, cudaStream_t stream) {
  if (!warpmma_fused_ok(cfg, p.m, p.n, p.k, dev)) return BLOCKFP8_ERROR_INVALID_CONFIG;
  Params prm = make_params(p, cfg);
  prm.x = static_cast<const __nv_bfloat16*>(x.x), prm.ldx = x.ldx, prm.ue8m0 = x.fmt == BLOCKFP8_SCALE_UE8M0;
  switch (instance_key(cfg.token_tile, cfg.weight_rows, cfg.stage_kblocks)) {
#define BLOCKFP8_WARPMMA_FUSED_CASE(TT, RR, UU) \
  case instance_key(TT, RR, UU): return enqueue<TT / kFragTokens, RR / kFragRows, UU, true>(prm, cfg, dev, stream);
    BLOCKFP8_WARPMMA_FUSED_CONFIGS(BLOCKFP8_WARPMMA_FUSED_CASE)
#undef BLOCKFP8_WARPMMA_FUSED_CASE
    default: return BLOCKFP8_ERROR_INVALID_CONFIG;
  }
}

#ifdef BLOCKFP8_TIMELINE
int read_warpmma_timeline(unsigned long long* host, int ctas) { return copy_timeline(g_timeline, host, ctas); }
#endif

}  // namespace blockfp8::detail
