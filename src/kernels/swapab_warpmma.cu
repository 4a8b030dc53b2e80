// Decode at a few tokens: the weight streams from HBM straight into registers and meets the tokens in
// the warp-level fp8 MMA (mma.sync m16n8k32). No TMA, no mbarrier, no shared-memory ring.
//
// Why a second decode kernel. At M <= 8 the TMA kernel (swapab_splitk.cu) streams at the floor's
// rate but pays ~1.6 us before its first stage lands and ~1.5 us of split-K tail (cluster barriers,
// DSMEM) around it (docs/decode-kernel-notes.md). Here a CTA owns a strip of 16 or 32 weight rows
// over all of K (or a cluster rank's share of it), its warps take interleaved k-blocks, and every
// thread issues its batch of 16-byte loads at once, like the streaming-floor kernel: the first bytes
// are requested a few hundred cycles after launch, and the reduction is across the warps of one CTA.
//
// The layout trick. A dot product does not care in which order k runs, as long as both operands use
// the same order. So lane (g, t) = (lane / 4, lane % 4) loads 16 contiguous bytes of weight row g at
// k-block offsets 16t and 64 + 16t (four lanes cover a 128-byte row: coalesced), the same for row
// g + 8, and the same offsets of token g's activations; these 32 bytes fill its fragment slots of four
// m16n8k32 MMAs, in the same order for A and B.
//
// Tokens sit on the MMA's N side (8 a fragment), weight rows on its M side (16): Cᵀ = B·Aᵀ, swap-AB.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>

#include "kernels/host_support.h"
#include "kernels/launch.h"
#include "kernels/ptx.cuh"
#include "kernels/store_out.cuh"

namespace blockfp8::detail {
namespace {

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
  bool const_weights;
};

// NT token fragments (token tile 8 NT), RT row fragments (weight rows 16 RT), U k-blocks a warp loads
// before it uses any. Grid: x = row strip x split (a cluster's ranks are consecutive), y = token tile.
template <int NT, int RT, int U>
__global__ void __launch_bounds__(warpmma_max_warps(kFragTokens * NT, kFragRows * RT, U) * 32, 1)
    swapab_warpmma_kernel(const Params p) {
  extern __shared__ float red[];  // [warps][16 RT][8 NT]: each warp's partial sums
  constexpr int kRows = kFragRows * RT, kTokens = kFragTokens * NT;
  const int warps = blockDim.x / 32, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4;
  const int rank = blockIdx.x % p.split;  // == %cluster_ctarank: the cluster spans consecutive x
  const int row0 = blockIdx.x / p.split * kRows;
  const int tok0 = blockIdx.y * kTokens;
  const int kb_begin = rank * p.kb_slice, kb_end = min(p.kb_total, kb_begin + p.kb_slice);

  // This lane's weight rows are g + 8 h of each fragment, its token g of each fragment, its scales
  // those of tokens 2t and 2t + 1; past N or M they read as zeros (the loads are predicated off, so
  // the addresses are never clamped). A strip never straddles a b_scale block: 16 RT divides 128.
  const int64_t ldb = p.ldb, lda = p.lda;
  const uint8_t* wlane = p.b + int64_t(row0 + g) * ldb + 16 * t;
  const uint8_t* alane = p.a + int64_t(tok0 + g) * lda + 16 * t;
  const float* bs = p.b_scale + int64_t(row0 / 128) * p.sb_n;
  const float* as = p.a_scale + int64_t(tok0 + 2 * t) * p.sa_m;
  const int rows_left = p.n - row0 - g, toks_left = p.m - tok0 - g, stoks_left = p.m - tok0 - 2 * t;

  ptx::launch_dependents();
  // A, a_scale and C may belong to the preceding kernel (PDL); the weight only with const_weights.
  bool waited = !p.const_weights;
  if (waited) ptx::grid_dependency_wait();

  float acc[RT][NT][4] = {};
  for (int kb0 = kb_begin + warp; kb0 < kb_end; kb0 += U * warps) {
    uint4 w[U][RT][2][2];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int kb = kb0 + u * warps;
      const bool live = kb < kb_end;
#pragma unroll
      for (int r = 0; r < RT; ++r)
#pragma unroll
        for (int h = 0; h < 2; ++h)
#pragma unroll
          for (int q = 0; q < 2; ++q)
            w[u][r][h][q] = ptx::ld_stream_v4(wlane + (r * kFragRows + 8 * h) * ldb + kb * 128 + 64 * q,
                                              live && r * kFragRows + 8 * h < rows_left);
    }
    if (!waited) ptx::grid_dependency_wait(), waited = true;
    uint4 x[U][NT][2];
    float sb[U], sa[U][NT][2];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int kb = kb0 + u * warps;
      const bool live = kb < kb_end;
#pragma unroll
      for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int q = 0; q < 2; ++q)
          x[u][j][q] = ptx::ld_shared_v4(alane + j * kFragTokens * lda + kb * 128 + 64 * q,
                                         live && j * kFragTokens < toks_left);
      sb[u] = live ? __ldg(bs + kb * p.sb_k) : 0.f;
#pragma unroll
      for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int e = 0; e < 2; ++e)
          sa[u][j][e] = live && j * kFragTokens + e < stoks_left ? __ldg(as + (j * kFragTokens + e) * p.sa_m + kb * p.sa_k) : 0.f;
    }
    // Per k-block: four MMAs into a fresh accumulator, then the block scales (as the reference).
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int r = 0; r < RT; ++r)
#pragma unroll
        for (int j = 0; j < NT; ++j) {
          float d[4] = {0.f, 0.f, 0.f, 0.f};
          const uint32_t* lo = &w[u][r][0][0].x;  // row g: 32 bytes, k slots in load order
          const uint32_t* hi = &w[u][r][1][0].x;  // row g + 8
          const uint32_t* xs = &x[u][j][0].x;     // token g
#pragma unroll
          for (int i = 0; i < 4; ++i) ptx::mma_m16n8k32_e4m3(d, lo[2 * i], hi[2 * i], lo[2 * i + 1], hi[2 * i + 1], xs[2 * i], xs[2 * i + 1]);
          const float s0 = sb[u] * sa[u][j][0], s1 = sb[u] * sa[u][j][1];
          acc[r][j][0] += d[0] * s0, acc[r][j][1] += d[1] * s1;
          acc[r][j][2] += d[2] * s0, acc[r][j][3] += d[3] * s1;
        }
  }
  if (!waited) ptx::grid_dependency_wait();  // a warp with no k-block still writes C below

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
  float* part = red + warps * kRows * kTokens;  // [16 RT][8 NT]: this CTA's sum (split > 1)
  constexpr int kOut = kRows * kTokens;
  for (int i = threadIdx.x; i < kOut; i += blockDim.x) {
    float s = 0.f;
    for (int w2 = 0; w2 < warps; ++w2) s += red[w2 * kOut + i];
    if (p.split > 1) {
      part[i] = s;
    } else {
      const int row = row0 + i / kTokens, tok = tok0 + i % kTokens;
      if (row < p.n && tok < p.m) store_out(p.c, int64_t(tok) * p.ldc + row, s, p.c_dtype);
    }
  }
  if (p.split == 1) return;

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
}

template <int NT, int RT, int U>
blockfp8_status_t enqueue(const Params& prm, int warps, int64_t strips, int64_t token_tiles, cudaStream_t stream) {
  const int smem = (warps + 1) * kFragRows * RT * kFragTokens * NT * int(sizeof(float));
  static std::atomic<int> raised[kMaxDevices];
  if (smem > 48 * 1024 && raise_smem_limit(swapab_warpmma_kernel<NT, RT, U>, raised, smem) != cudaSuccess)
    return BLOCKFP8_ERROR_CUDA;
  cudaLaunchAttribute attr[2];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = prm.split;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  attr[1].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[1].val.programmaticStreamSerializationAllowed = pdl_enabled() ? 1 : 0;
  cudaLaunchConfig_t lc{};
  lc.gridDim = dim3(unsigned(strips * prm.split), unsigned(token_tiles));
  lc.blockDim = dim3(unsigned(warps * 32));
  lc.dynamicSmemBytes = size_t(smem);
  lc.stream = stream;
  lc.attrs = attr;
  lc.numAttrs = 2;
  if (cudaLaunchKernelEx(&lc, swapab_warpmma_kernel<NT, RT, U>, prm) != cudaSuccess) return BLOCKFP8_ERROR_CUDA;
  return BLOCKFP8_SUCCESS;
}

}  // namespace

blockfp8_status_t launch_swapab_warpmma(const Problem& p, const blockfp8_config_t& cfg, cudaStream_t stream) {
  if (p.m == 0) return BLOCKFP8_SUCCESS;
  Params prm{};
  prm.m = int(p.m), prm.n = int(p.n), prm.kb_total = int(p.k_blocks());
  prm.split = cfg.split_k;
  prm.kb_slice = swapab_kb_slice(prm.kb_total, cfg.split_k);
  prm.a = static_cast<const uint8_t*>(p.a), prm.lda = p.lda;
  prm.a_scale = p.a_scale, prm.sa_m = p.a_scale_stride_m, prm.sa_k = p.a_scale_stride_k;
  prm.b = static_cast<const uint8_t*>(p.b), prm.ldb = p.ldb;
  prm.b_scale = p.b_scale, prm.sb_n = p.b_scale_stride_n, prm.sb_k = p.b_scale_stride_k;
  prm.c = p.c, prm.ldc = p.ldc, prm.c_dtype = p.c_dtype;
  prm.const_weights = (cfg.flags & BLOCKFP8_FLAG_CONST_WEIGHTS) != 0;
  const int warps = 4 * cfg.warpgroups;
  const int64_t strips = (p.n + cfg.weight_rows - 1) / cfg.weight_rows;
  const int64_t token_tiles = (p.m + cfg.token_tile - 1) / cfg.token_tile;
  const int key = cfg.token_tile * 1000 + cfg.weight_rows * 10 + cfg.stage_kblocks;
  switch (key) {
#define BLOCKFP8_WARPMMA_CASE(TT, RR, UU) \
  case TT * 1000 + RR * 10 + UU:          \
    return enqueue<TT / kFragTokens, RR / kFragRows, UU>(prm, warps, strips, token_tiles, stream);
    BLOCKFP8_WARPMMA_CONFIGS(BLOCKFP8_WARPMMA_CASE)
#undef BLOCKFP8_WARPMMA_CASE
    default: return BLOCKFP8_ERROR_INVALID_CONFIG;
  }
}

}  // namespace blockfp8::detail
