// Decode kernel (small M): swap-AB, split-K over a thread-block cluster, persistent.
//
// In decode M (tokens) is tiny and N x K (the weight) is large, so the GEMM is a stream of the weight
// from HBM, and it reaches HBM speed only when (nearly) every SM streams. We compute Cᵀ = B·Aᵀ:
// weight rows fill wgmma's M side (64), the tokens sit on its N side (8..32; a warpgroup of 64 tokens
// puts them on M and the weight rows on N, kTokensOnM, for a cheaper promotion). A tile is `rows`
// weight rows (16, 32, 40, 48, 56 or 64; wgmma still computes 64, the rows past the tile are never
// stored; heights that do not divide 128 make tiles that cross a b_scale block, kStraddle) x a
// token tile; each of the `split` CTAs of a cluster takes 1/split of K, and the cluster adds its
// partial sums through distributed shared memory in rank order, so the result is bitwise
// deterministic and needs no workspace: each rank reads its share of every rank's partial (the
// pulled sum: reduce_store, reduce_store_wide at 64+ tokens), or, at 8 and 16 tokens with one tile a
// cluster, the ranks push theirs into rank 0, which adds them all (the owner's sum, owner_sum_store;
// the same bits). Shorter tiles spread a small weight over more SMs, but a k-block's math costs about
// the same at any height (docs/decode-kernel-notes.md), so the dispatcher takes them only where 64-row
// tiles would leave too many SMs idle.
//
// The grid is as many clusters as the device holds at once; each walks tiles `clusters` apart, and
// the producer streams the next tile's k-blocks while the math warps reduce the current one, so the
// pipeline never drains between tiles.
//
// CTA = 1 or 2 math warpgroups (wgmma + block-scale promotion + epilogue) and 1 producer warp. Two
// warpgroups share a tile of up to 64 tokens by taking alternate stages (each accumulates every
// token); a wider tile they split by tokens (each takes every stage for its half), so each keeps a
// 64-token accumulator and its next wgmma in flight during the promotion. The producer warp fills a
// ring of `stages` shared-memory stages guarded by full/empty mbarriers. A stage is `kblocks`
// consecutive k-blocks (one 2-D TMA box each for weight and tokens when kblocks is 1, a 3-D box
// otherwise), which saves barrier hand-offs for short tiles.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <atomic>

#include "kernels/launch.h"
#include "kernels/ptx.cuh"
#include "kernels/quant_math.cuh"
#include "kernels/host_support.h"
#include "kernels/store_out.cuh"
#include "kernels/timeline.cuh"

namespace blockfp8::detail {
namespace {

using ptx::kKBlockBytes;

constexpr int kRedPitch = kSwapabRedPitch;

#ifdef BLOCKFP8_TIMELINE
__device__ TimelineRows g_timeline;  // kernels/timeline.cuh; read by read_timeline
// Mark 18: the CTA's last consumer thread past its stores of the first tile: how long the exit barrier then
// waits for the other ranks. A count per CTA slot that every call adds kConsumers to and is never reset, the
// last of a call's arrivals the one that makes it a multiple: a reset at entry raced, under PDL, with the
// previous call's CTA of the same slot still counting (the next call's stores wait for that call to end, so
// two calls' arrivals never interleave).
__device__ unsigned g_stored_count[kTimelineCtas];
template <int kConsumers>
__device__ __forceinline__ bool last_to_store() {
  return blockIdx.x < kTimelineCtas && atomicAdd(&g_stored_count[blockIdx.x], 1u) % kConsumers == kConsumers - 1;
}
#endif

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
  // The fused A side (kFused): bf16 activations X [m][ldx], quantised by each CTA for its K slice
  // (ue8m0: UE8M0 scales).
  const __nv_bfloat16* x;
  int64_t ldx;
  int ue8m0;
  // BLOCKFP8_FLAG_CONST_WEIGHTS: no kernel before this one writes B or b_scale, so the producer may
  // load the first weight stages before the preceding kernel (PDL) has finished.
  int const_weights;
  // The owner's sum (kOwner instances; owner_sum_store): k-blocks rank 0 takes beyond an even share
  // (swapab_slice_begin). Last, so that the other fields keep their offsets.
  int lead;
  // Rows of each token box: TN, or M for kTailTokens instances with one-k-block stages where one token
  // tile holds every token. The rows past M then hold whatever the stage held before; their
  // accumulator columns are never stored.
  int token_rows;
  // kScaleBox instances: the first tile's a_scales come by one TMA box ([TN][scale_box_kb] fp32 from
  // row-major a_scale, tmap_sa) at scale_box_at floats past the reduction buffers' start
  // (swapab_scale_box_at), which the math warps then lay out as load_scales does (scales_by_tma).
  int scale_box_kb, scale_box_at;
};

// Shared-memory layout of one CTA, from a 1024-byte aligned base (128-byte swizzle atoms need it):
//   [stages x StageLayout (below): kblocks x A tile (not fused) | kblocks x B tile]
//   [fused: the K slice's quantised tokens, kb_slice x [TN][128] e4m3]
//   [2 x reduction buffer [TN][kRedPitch] fp32] [2 x scales: kb_slice x (TN a_scales, b_scale, pad)]
//   [2 x stages mbarriers]
// Reduction buffers and scales alternate between consecutive tiles of the CTA, so the next tile's
// scales load and the current tile's partial sums are read by the other ranks at the same time.
// With the owner's sum, rank 0's two reduction buffers are its inbox, and their last 8 bytes (which
// the inbox never reaches: swapab_owner_sum_fits) its inbox barrier.
template <int TN>
struct Layout {
  static constexpr int kScalePitch = TN + 4;  // TN a_scales, then b_scale; 16-byte multiple
  static constexpr int kRedFloats = TN * kRedPitch;
};

// A position in the ring: slot and lap advance by counting, never by dividing (a runtime integer
// division is ~25 dependent instructions; at three or four per k-block they cost more than the
// k-block's wgmma). Ring position lap * stages + slot.
struct RingPos {
  int slot;
  uint32_t lap;
  __device__ __forceinline__ uint32_t phase() const { return lap & 1; }
  // The parity of the ring position: which of two alternating warpgroups takes it (kAlternate).
  __device__ __forceinline__ int parity(int stages) const { return swapab_ring_warpgroup(lap, slot, stages); }
  __device__ __forceinline__ void advance(int by, int stages) {
    slot += by;
    if (slot >= stages) slot -= stages, ++lap;  // by <= stages
  }
  __device__ __forceinline__ void advance_far(int by, int stages) {  // any by; once per tile
    slot += by;
    while (slot >= stages) slot -= stages, ++lap;
  }
};

// One stage: kblocks token tiles ([TN][128] e4m3, 128-byte swizzle; not when fused: the fused
// kernel's tokens stay resident for the whole K slice), then kblocks weight tiles ([rows][128] e4m3).
template <int TN, bool kFused>
struct StageLayout {
  static constexpr int kATile = kFused ? 0 : TN * kKBlockBytes;
  __device__ __forceinline__ static int bytes(int kblocks, int rows) { return kblocks * (kATile + rows * kKBlockBytes); }
  __device__ __forceinline__ static int tokens(int q) { return q * kATile; }
  __device__ __forceinline__ static int weight(int kblocks, int q, int rows) {
    return kblocks * kATile + q * rows * kKBlockBytes;
  }
};

// Tokens one math warpgroup accumulates: the whole tile, or its half where two split a wide tile
// (the dispatcher's rule, so its ring bounds and the kernel agree).
template <int TN, int W>
constexpr int kWgTokens = swapab_wg_tokens(TN, W);
template <int TN, int W>
constexpr bool kSplitTokens = kWgTokens<TN, W> < TN;

// Two warpgroups taking alternate stages of a tile: ring position p goes to warpgroup p % 2, and each
// warpgroup has its own full barrier per slot (the producer arrives on the one of the stage's
// warpgroup). A wait by parity passes at once while the barrier is still in the phase before the one
// awaited, so it is sound only if the waiter saw the slot's previous use land. With one barrier a slot
// and an odd ring, consecutive uses of a slot go to different warpgroups, and a warpgroup could pass
// its wait on a stage still being written whenever the other's earlier use had not landed yet (main
// was safe only because each warpgroup held its drained slot until its next stage landed, and the
// first ring-full by timing: docs/decode-kernel-notes.md). With a barrier per warpgroup every wait
// follows the waiter's own previous use of that barrier. Warpgroup w uses slot s on every lap (even
// ring) or every other lap (odd ring: lap % 2 == w ^ s % 2), so its wait parity is lap's bit 0 or 1.
// A tile's two partial sums are the same either way round (the ring position's parity only decides
// which warpgroup holds which), and park adds them commutatively: the bits do not depend on it.
template <int TN, int W>
constexpr bool kAlternate = W == 2 && !kSplitTokens<TN, W>;

// A warpgroup of 64 tokens puts them on wgmma's M side (the token tile is the A operand, the weight
// tile B: m64n64k32), the other way round from the narrower tiles. A thread's accumulator rows are then
// two tokens and its columns weight rows, so a k-block's promotion reads two a_scales and the b_scale
// from shared memory instead of 16 and the b_scale. With the weight on the M side those 17 loads a
// k-block were what kept the promotion from overlapping the wgmma: bench/probes/decode_loop measured
// the loop at 246 cycles a k-block a CTA of two warpgroups, 194 with the tokens on M (s23 call 1). In
// the kernel that bought only 0.98-0.99x at 40-64 tokens on the long-K weights (call 2): the loop is
// not what paces the 64-token stream. The tensor core gives the same bits either way round (496
// points of the DeepSeek set, call 2). Narrower tiles keep the weight on M: 32 tokens on M would leave
// half of wgmma's rows empty (228 against 171 cycles).
template <int TN, int W>
constexpr bool kTokensOnM = kWgTokens<TN, W> == 64;

// The barriers follow the scales: `stages` full ones, `stages` empty ones, and where kAlternate,
// warpgroup 1's `stages` full ones. The full barrier of `slot` that warpgroup `wg` waits on (the
// producer arrives on the one of the stage's warpgroup).
template <int TN, int W>
__device__ __forceinline__ uint64_t* full_barrier(uint64_t* full, int stages, int slot, bool wg1) {
  return &full[(kAlternate<TN, W> && wg1 ? 2 * stages : 0) + slot];
}

// Timing-only switches, for measuring where the stream's time goes (the results are wrong: never in a
// library build; bench with --no-check). -DBLOCKFP8_DIAG_NO_WGMMA: the math warps skip the wgmma;
// _NO_PROMOTE: they skip the promotion; both: they only wait for stages and hand them back;
// _NO_TOKENS: the producer loads no token tiles. docs/decode-kernel-notes.md (twenty-first session)
// has what they measured.
#if defined(BLOCKFP8_DIAG_NO_WGMMA) || defined(BLOCKFP8_DIAG_NO_PROMOTE) || defined(BLOCKFP8_DIAG_NO_TOKENS)
#pragma message("blockfp8: a timing-only diagnostic build of the decode kernel; its results are wrong")
#endif
#ifdef BLOCKFP8_DIAG_NO_WGMMA
constexpr bool kDiagNoWgmma = true;
#else
constexpr bool kDiagNoWgmma = false;
#endif
#ifdef BLOCKFP8_DIAG_NO_PROMOTE
constexpr bool kDiagNoPromote = true;
#else
constexpr bool kDiagNoPromote = false;
#endif
#ifdef BLOCKFP8_DIAG_NO_TOKENS
constexpr bool kDiagNoTokens = true;
#else
constexpr bool kDiagNoTokens = false;
#endif

// Token boxes that stop at row M where one token tile holds every token (Params::token_rows), instead
// of TN rows with TMA filling the rest with zeros. The fill is not free: a forced 64-token tile took
// 67.7 us at M = 1 on 7168x16384 with it and 45.0 without (0.66-0.94x on three weights at M = 1-32,
// s19 call 5), and the old time fell as M grew. As dispatched (call 8): 0.86-0.97x at M = 33 on six
// of nine weights, 0.95-0.98x at M = 40 on three, 0.96-0.97x at M = 96-100 (128 tokens, 576x7168),
// 0.99-1.01x elsewhere. At 32 tokens the tail boxes measured 0.96-1.03x, so narrower tiles keep full
// boxes (and their SASS).
template <int TN, bool kFused>
constexpr bool kTailTokens = TN >= kSwapabMinTailTokenTile && !kFused;

// The first tile's a_scales by one TMA box where a slice needs several rounds of load_scales: at 32 tokens
// and up, a long K slice's scales came 5.9-7.8 us after entry against 2.7 at 8 tokens, and the first
// k-block waited for all of them (7168x16384, s19 call 12); with the box 1.8 and 2.5 us at 32 and 64
// tokens (s20 call 1). More loads a thread in flight (s19 call 13) and 4-byte cp.async in two groups
// (call 14) did not pay. Its own instances (kScaleBox): a runtime switch in the others cost the 32-token
// instance 1-2 % on 2112x7168 and 4096x7168, where it is never taken (s20 call 2).
template <int TN, bool kFused>
constexpr bool kTmaScales = TN >= 32 && !kFused;

#ifdef BLOCKFP8_TIMELINE
// The stage whose issue (producer) and landing (warpgroup 0) marks 13 and 12 record: warpgroup 0's
// first past half the tile's stages (it takes every `stride`-th).
__host__ __device__ constexpr int swapab_mid_stage(int stages_per_tile, int stride) {
  return stages_per_tile / 2 / stride * stride;
}
#endif

// One consumer warpgroup's share of a tile's K slice: stages wg, wg + W, wg + 2W, ... of it, every
// k-block of each (split tokens: every stage, for its tokens tok0 .. tok0 + TW - 1). The wgmma of the
// next k-block is in flight while the previous one is promoted with its scales (two `part`
// accumulators, used in turn), so the tensor core never waits on the promotion. The CTA's stages are
// numbered across its tiles: stage q of its j-th tile is ring position j * stages_per_tile + q.
template <int TN, int W, bool kFused, bool kStraddle = false>
struct ConsumerLoop {
  using L = Layout<TN>;
  using S = StageLayout<TN, kFused>;
  static constexpr bool kSplit = kSplitTokens<TN, W>;
  static constexpr int TW = kWgTokens<TN, W>;
  static constexpr int kStride = kSplit ? 1 : W;  // stages between a warpgroup's consecutive ones
  // Few members, everything else derived where used: at 64 tokens and two warpgroups the loop sits
  // at the 168-register cap of a 288-thread CTA, and every live value more spilled.
  const uint8_t* smem;
  const float* scales;
  uint64_t* full;  // the barriers (full_barrier); the empty one of slot s at full[stages + s]
  int stages, kblocks, kb_count, rows;
  const uint8_t* resident;  // kFused: the K slice's quantised tokens, kb_count tiles of [TN][128]

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
    if (kStride == 1) return {0, 0, pos};
    const int skip = (wg ^ pos.parity(stages)) & 1;  // kAlternate: the tile's first stage may be the other's
    pos.advance(skip, stages);
    return {skip * kblocks, 0, pos};
  }
  __device__ __forceinline__ Step next(Step st) const {
    if (!last_of_stage(st)) return {st.i + 1, st.q + 1, st.pos};
    st.pos.advance(kStride, stages);
    return {st.i - st.q + kStride * kblocks, 0, st.pos};
  }
  __device__ __forceinline__ bool valid(const Step& st) const { return st.i < kb_count; }

#ifdef BLOCKFP8_TIMELINE
  // Thread 0 at the stage the producer marks as issued (mark 13): warpgroup 0's first past half the
  // slice. Marks 14, 12, 15, 16, 17 follow that stage through the warpgroup's loop. mid_kb is its first
  // k-block, set per tile for thread 0 only (-1 elsewhere), so that a mark costs one compare: a
  // division a k-block on warp 0 made the whole 64-token loop 1.9x slower (s22 call 1).
  int mid_kb = -1;
  __device__ __forceinline__ bool mid_stage(const Step& st) const { return st.i - st.q == mid_kb; }
#endif

  __device__ __forceinline__ void issue(const Step& st, int tok0, float (&part)[TW / 2]) const {
    BLOCKFP8_MARK(14, st.q == 0 && mid_stage(st));  // its wait begins
    if (st.q == 0) {
      ptx::mbar_wait(full_barrier<TN, W>(full, stages, st.pos.slot, threadIdx.x >= 128),
                     kAlternate<TN, W> ? swapab_alternate_wait_parity(st.pos.lap, stages) : st.pos.phase());
    }
    BLOCKFP8_MARK(12, st.q == 0 && mid_stage(st));  // it landed
    // The stage's place, read from lane 0: the same in every lane, which ptxas cannot prove of the ring
    // position. From it the two descriptors go to uniform registers once (two R2UR) and step by k32 with
    // UIADD3; from the lanes' own copies ptxas rebuilt both in ordinary registers and moved them with four
    // R2UR before each of the four wgmmas of a k-block (s26: cuobjdump of the 32-token instance). With
    // the tiled kernel's same change, 0.98-0.995x at M = 16-128 (s26 call 2).
    const int slot = __shfl_sync(0xffffffffu, st.pos.slot, 0), q = __shfl_sync(0xffffffffu, st.q, 0);
    const uint8_t* stage = smem + slot * S::bytes(kblocks, rows);
    // A split half starts 64 rows in: a whole number of 1024-byte swizzle atoms.
    const uint8_t* tile = kFused ? resident + __shfl_sync(0xffffffffu, st.i, 0) * TN * kKBlockBytes : stage + S::tokens(q);
    const uint8_t* tokens = tile + tok0 * kKBlockBytes;
    const uint8_t* weight = stage + S::weight(kblocks, q, rows);
    const uint64_t desc_w = ptx::wgmma_desc_k128_sw128(weight);  // weight rows: wgmma A (kTokensOnM: B)
    const uint64_t desc_t = ptx::wgmma_desc_k128_sw128(tokens);  // tokens: wgmma B (kTokensOnM: A)
    if (kDiagNoWgmma) return;
    ptx::wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < kKBlockBytes / 32; ++kk) {
      if constexpr (kTokensOnM<TN, W>)  // tokens: wgmma A, the weight rows its N = 64 side
        ptx::WgmmaE4M3<64>::mma(part, ptx::desc_advance(desc_t, kk * 32), ptx::desc_advance(desc_w, kk * 32), kk > 0);
      else
        ptx::WgmmaE4M3<TW>::mma(part, ptx::desc_advance(desc_w, kk * 32), ptx::desc_advance(desc_t, kk * 32), kk > 0);
    }
    ptx::wgmma_commit();
    ptx::fence_regs(part);
    BLOCKFP8_MARK(15, st.q == 0 && mid_stage(st));  // its first k-block's wgmma issued
  }

  // acc += part * a_scale[token] * b_scale; after a stage's last k-block, hand the stage back to the
  // producer unless release_early did. The thread owns tokens 8j + 2*(lane%4) + {0,1}: wgmma's
  // accumulator columns.
  // kStraddle: b_rows is the tile's rows under its first 128-row b_scale block; rows from there on
  // take the next block's b_scale (the scale layout's TN + 1). An argument, not a member: an unused
  // member moved the other instances' machine code.
  __device__ __forceinline__ void promote(const Step& st, int tok0, float (&part)[TW / 2],
                                         float (&acc)[TW / 2], int b_rows, bool release = true) const {
    ptx::fence_regs(part);
    if (kDiagNoPromote) {
      if (release && last_of_stage(st)) ptx::mbar_arrive(&full[stages + st.pos.slot]);
      return;
    }
    const int lane = threadIdx.x % 32;
    const float* sc = scales + st.i * L::kScalePitch;
    if constexpr (kTokensOnM<TN, W>) {
      // The thread's accumulator rows are tokens tok0 + t and + 8 (t: lane/4 of its warp's 16), its
      // columns weight rows 8j + 2*(lane%4) + {0,1}: a column group j takes one b_scale (b_rows and
      // the heights are multiples of 8), the second block's where a straddling tile's group starts past
      // b_rows.
      // Each output takes the same product a_scale * b_scale as the weight-on-M form's.
      const int t = tok0 + 16 * ((threadIdx.x / 32) % 4) + lane / 4;
      const float a_lo = sc[t], a_hi = sc[t + 8], sb = sc[TN];
      const float s_lo = a_lo * sb, s_hi = a_hi * sb;
      float s2_lo = s_lo, s2_hi = s_hi;
      if constexpr (kStraddle) s2_lo = a_lo * sc[TN + 1], s2_hi = a_hi * sc[TN + 1];
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        const bool second = kStraddle && 8 * j >= b_rows;
        const float lo = second ? s2_lo : s_lo, hi = second ? s2_hi : s_hi;
        acc[4 * j + 0] = fmaf(part[4 * j + 0], lo, acc[4 * j + 0]);
        acc[4 * j + 1] = fmaf(part[4 * j + 1], lo, acc[4 * j + 1]);
        acc[4 * j + 2] = fmaf(part[4 * j + 2], hi, acc[4 * j + 2]);
        acc[4 * j + 3] = fmaf(part[4 * j + 3], hi, acc[4 * j + 3]);
      }
    } else {
      // The b_scale of the thread's two rows (wgmma's accumulator rows lane/4 and lane/4 + 8 of its
      // warp's 16): the tile's one, or where the tile crosses a b_scale block (kStraddle), each row's own.
      float sb_lo = sc[TN], sb_hi = sb_lo;
      if constexpr (kStraddle) {
        const int row = 16 * ((threadIdx.x / 32) % 4) + lane / 4;
        sb_lo = sc[TN + (row >= b_rows)], sb_hi = sc[TN + (row + 8 >= b_rows)];
      }
      sc += tok0;
#pragma unroll
      for (int j = 0; j < TW / 8; ++j) {
        const float a0 = sc[8 * j + 2 * (lane % 4)], a1 = sc[8 * j + 2 * (lane % 4) + 1];
        acc[4 * j + 0] = fmaf(part[4 * j + 0], a0 * sb_lo, acc[4 * j + 0]);
        acc[4 * j + 1] = fmaf(part[4 * j + 1], a1 * sb_lo, acc[4 * j + 1]);
        acc[4 * j + 2] = fmaf(part[4 * j + 2], a0 * sb_hi, acc[4 * j + 2]);
        acc[4 * j + 3] = fmaf(part[4 * j + 3], a1 * sb_hi, acc[4 * j + 3]);
      }
    }
    if (release && last_of_stage(st)) ptx::mbar_arrive(&full[stages + st.pos.slot]);  // the slot's empty barrier
    BLOCKFP8_MARK(17, last_of_stage(st) && mid_stage(st));  // promoted
  }

  // Hand a drained stage back before waiting for the next one to land, once its wgmma are done (the
  // promotion reads registers, not the stage): the producer refills the slot a stage sooner. Sound
  // only with a full barrier per alternating warpgroup (kAlternate): with one a slot, it faulted
  // (s20 call 7). 0.97-0.98x at 48-64 tokens on 7168x16384, 56 of 63 points within 0.98-1.02x (s21 calls 1-2).
  __device__ __forceinline__ void release_early(const Step& st) const {
    if (!last_of_stage(st)) return;
    ptx::wgmma_wait<0>();
    BLOCKFP8_MARK(16, mid_stage(st));  // its wgmma done: released
    ptx::mbar_arrive(&full[stages + st.pos.slot]);
  }

  __device__ __forceinline__ void run(int wg, RingPos tile_start, float (&acc)[TW / 2],
                                     int b_rows = kSwapabRowsPerTile) const {
    const int tok0 = kSplit ? wg * TW : 0;
    float part0[TW / 2];
    Step cur = first(wg, tile_start);
    if constexpr (TW > kSwapabMaxPipelinedTokenTile) {
      // Three 64-register accumulator sets would spill: no overlap for the widest token tile.
      for (; valid(cur); cur = next(cur)) {
        issue(cur, tok0, part0);
        ptx::wgmma_wait<0>();
        promote(cur, tok0, part0, acc, b_rows);
      }
      return;
    }
    float part1[TW / 2];
    if (!valid(cur)) return;
    issue(cur, tok0, part0);
    BLOCKFP8_MARK(8, threadIdx.x == 0);  // the first stage landed
    while (true) {
      Step nxt = next(cur);
      if (valid(nxt)) {
        release_early(cur);
        issue(nxt, tok0, part1);
        ptx::wgmma_wait<1>();
        promote(cur, tok0, part0, acc, b_rows, false);
      } else {
        ptx::wgmma_wait<0>();
        promote(cur, tok0, part0, acc, b_rows);
        return;
      }
      cur = nxt;
      nxt = next(cur);
      if (valid(nxt)) {
        release_early(cur);
        issue(nxt, tok0, part0);
        ptx::wgmma_wait<1>();
        promote(cur, tok0, part1, acc, b_rows, false);
      } else {
        ptx::wgmma_wait<0>();
        promote(cur, tok0, part1, acc, b_rows);
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
// Loads in flight per thread before the first store: rounds of latency, not loads. A slice with more
// than one round's scales takes the TMA box instead, where it can (scales_by_tma).
constexpr int kScaleLoadsInFlight = 8;
// kStraddle: a tile whose rows cross a 128-row boundary (tile heights that do not divide 128) takes the
// next block's b_scale too, at TN + 1 (0 where that block lies past N: its rows are never stored).
template <bool kStraddle>
__device__ __forceinline__ const float* second_b_row(const Params& p, int n0) {
  return kStraddle && (n0 / 128 + 1) * 128 < p.n ? p.b_scale + (n0 / 128 + 1) * p.sb_n : nullptr;
}

template <int TN, bool kStraddle = false>
__device__ __forceinline__ void load_scales(float* scales, const Params& p, int m0, int n0, int kb_begin,
                                            int kb_count, int thread, int threads) {
  constexpr int kPerKBlock = TN + 1 + kStraddle;
  constexpr int kBatch = kScaleLoadsInFlight;
  const int total = kb_count * kPerKBlock;
  const bool k_fastest = p.sa_k == 1;  // row-major a_scale: consecutive k-blocks are adjacent
  const float* b_row = p.b_scale + (n0 / 128) * p.sb_n;
  const float* b_row2 = second_b_row<kStraddle>(p, n0);
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
      else if (kStraddle && t > TN) v[u] = b_row2 ? __ldg(b_row2 + kb * p.sb_k) : 0.f;
      else if (m < p.m) v[u] = __ldg(p.a_scale + int64_t(m) * p.sa_m + int64_t(kb) * p.sa_k);
    }
#pragma unroll
    for (int u = 0; u < kBatch; ++u)
      if (slot[u] >= 0) scales[slot[u]] = v[u];
  }
}

// The first tile's a_scales from the TMA box that landed token-major ([TN][box_kb], zeros past M and past
// K; `staged` points at the slice's first k-block in its first row) into load_scales' layout (k-block
// major, TN + 4 floats a k-block). A warp a token row at a time, its lanes along the k-blocks:
// conflict-free reads, no divisions.
template <int TN>
__device__ __forceinline__ void scales_from_box(float* scales, const float* staged, int box_kb, int kb_count,
                                                int tid, int threads) {
  const int warp = tid / 32, lane = tid % 32, warps = threads / 32;
  for (int t = warp; t < TN; t += warps)
    for (int j = lane; j < kb_count; j += 32) scales[j * Layout<TN>::kScalePitch + t] = staged[t * box_kb + j];
}

// The b_scale of each k-block of the K slice (the fused kernel's a_scales come from quantize_slice).
template <int TN, bool kStraddle = false>
__device__ __forceinline__ void load_b_scales(float* scales, const Params& p, int n0, int kb_begin, int kb_count,
                                              int thread, int threads) {
  const float* b_row = p.b_scale + (n0 / 128) * p.sb_n;
  const float* b_row2 = second_b_row<kStraddle>(p, n0);
  for (int j = thread; j < kb_count; j += threads) {
    const float b = __ldg(b_row + int64_t(kb_begin + j) * p.sb_k);
    if constexpr (kStraddle)
      scales[j * Layout<TN>::kScalePitch + TN + 1] = b_row2 ? __ldg(b_row2 + int64_t(kb_begin + j) * p.sb_k) : 0.f;
    scales[j * Layout<TN>::kScalePitch + TN] = b;
  }
}

// The fused A side, once per CTA: X's rows (all M <= TN of them: one token tile) over the CTA's K
// slice, quantised exactly as blockfp8_quantize_1x128 does (kernels/quant_math.cuh) into `tokens`,
// laid out as TMA would have loaded the quantiser's output (kb_count tiles of [TN][128] bytes,
// 128-byte swizzle: 16-byte chunk c of row t at chunk c ^ (t % 8)), and the scales into both tile
// scale buffers. Rows past M are zeros with scale 0, as TMA's out-of-bounds fill and load_scales give.
// A half-warp owns a group (lane `sub` holds elements 8 sub .. 8 sub + 7, one 16-byte load). Latency
// is the cost: every load of a pass is issued before any arithmetic, and a pass waits its loads out
// behind the weight stream the producer has already started (making the producer wait for the X
// loads to go out first measured slower: 10.9 against 9.8 us at M = 1 on 2112 x 7168); the
// dispatcher takes this kernel only where that pays (at most kSwapabFusedMaxGroups groups: with 16
// lanes a group, a few groups a thread, one pass).
constexpr int kFusedLoadsPerThread = 8;
static_assert(kFusedLoadsPerThread * 16 >= kSwapabFusedMaxGroups, "the fused slice takes one pass of loads");

template <int TN>
__device__ __forceinline__ void quantize_slice(uint8_t* tokens, float* scales0, float* scales1, const Params& p,
                                               int kb_begin, int kb_count, int tid, int threads) {
  constexpr int kLoads = kFusedLoadsPerThread;
  const int live = p.m < TN ? p.m : TN;
  const int groups = live * kb_count;
  const int sub = tid % 16;
  const int per_pass = threads / 16;
  // A warp's two half-warps take groups g and g + 1: `warp_base` (the even one) >= groups means both
  // are past the end, so the early exits below are warp-uniform (the shuffles need the whole warp).
  for (int base = tid / 16; base - tid / 16 < groups; base += kLoads * per_pass) {
    const int warp_base = base - (tid / 16) % 2;
    uint4 raw[kLoads];
#pragma unroll
    for (int u = 0; u < kLoads; ++u) {
      const int g = base + u * per_pass;
      raw[u] = make_uint4(0, 0, 0, 0);
      if (g < groups) {
        const int t = g / kb_count, j = g - t * kb_count;  // consecutive groups: adjacent k-blocks of a row
        raw[u] = __ldg(reinterpret_cast<const uint4*>(p.x + int64_t(t) * p.ldx + int64_t(kb_begin + j) * 128) + sub);
      }
    }
#pragma unroll
    for (int u = 0; u < kLoads; ++u) {
      const int g = base + u * per_pass;
      if (warp_base + u * per_pass >= groups) continue;  // warp-uniform: skips the shuffles too
      uint32_t packed[2];
      const float s = quantize_bf16_group(raw[u], p.ue8m0, packed);
      if (g >= groups) continue;  // uniform across the half-warp, after the shuffles
      const int t = g / kb_count, j = g - t * kb_count;
      uint8_t* row = tokens + j * TN * kKBlockBytes + t * kKBlockBytes;
      *reinterpret_cast<uint2*>(row + (((sub >> 1) ^ (t & 7)) << 4) + (sub & 1) * 8) = make_uint2(packed[0], packed[1]);
      if (sub == 0) scales0[j * Layout<TN>::kScalePitch + t] = scales1[j * Layout<TN>::kScalePitch + t] = s;
    }
  }
  // Rows past M.
  const int dead = TN - live;
  for (int i = tid; i < dead * kb_count * (kKBlockBytes / 16); i += threads) {
    const int row = i / (kKBlockBytes / 16), chunk = i % (kKBlockBytes / 16);
    const int j = row / dead, t = live + row % dead;
    reinterpret_cast<uint4*>(tokens + j * TN * kKBlockBytes + t * kKBlockBytes)[chunk] = make_uint4(0, 0, 0, 0);
  }
  for (int i = tid; i < dead * kb_count; i += threads) {
    const int j = i / dead, t = live + i % dead;
    scales0[j * Layout<TN>::kScalePitch + t] = scales1[j * Layout<TN>::kScalePitch + t] = 0.f;
  }
  ptx::fence_proxy_async_shared();  // the generic-proxy writes above, before wgmma (async proxy) reads them
}

// A rank's K slice: k-blocks [begin, begin + count) (swapab_slice_begin; even shares unless the
// owner's sum gives rank 0 a lead).
struct KSlice {
  int begin, count;
};
template <bool kOwner>
__device__ __forceinline__ KSlice k_slice(const Params& p, int rank) {
  if constexpr (!kOwner) {  // even shares: the lead's terms fold away
    const int begin = swapab_slice_begin(p.kb_total, p.split, 0, rank);
    return {begin, swapab_slice_begin(p.kb_total, p.split, 0, rank + 1) - begin};
  } else {
    const int begin = swapab_slice_begin(p.kb_total, p.split, p.lead, rank);
    return {begin, swapab_slice_begin(p.kb_total, p.split, p.lead, rank + 1) - begin};
  }
}

// A tile's first weight row and first token row: its token boxes start there. Of several 64- or
// 128-token tiles the last one starts at M - TN, inside M, rather than past the one before it: a box
// reaching past M has the TMA engine write zeros for the rest, slowly (64-token tiles at M = 96: 13.9 us
// against 11.7 at M = 128 on 2112x7168, s24 call 7). The rows it shares with the tile before are
// computed by both (a token row's sums do not depend on the others') and stored by that tile alone
// (stores_token: a tile stores from its first multiple of TN). Not at 8-32 tokens, where the
// dispatcher's tiles hold every token: compiled into those instances too, it cost 0.2-1.4 % at
// M = 8-64 (s24 call 8), and their machine code is unchanged without it.
template <int TN>
constexpr bool kShiftLastTokenTile = TN >= 64;
struct TileOrigin {
  int n0, m0;
};
template <int TN>
__device__ __forceinline__ TileOrigin tile_origin(const Params& p, int64_t t) {
  if constexpr (kShiftLastTokenTile<TN>) {
    const int m0 = int(t / p.tiles_n) * TN;
    return {int(t % p.tiles_n) * p.rows, p.m > TN ? min(m0, p.m - TN) : m0};
  } else {
    return {int(t % p.tiles_n) * p.rows, int(t / p.tiles_n) * TN};
  }
}
// Whether the tile at o stores token row m (TN a power of two).
template <int TN>
__device__ __forceinline__ bool stores_token(const TileOrigin& o, int m, const Params& p) {
  if constexpr (kShiftLastTokenTile<TN>) return m >= ((o.m0 + TN - 1) & ~(TN - 1)) && m < p.m;
  return m < p.m;
}

// Park a warpgroup-summed partial tile, token-major, in red[token][row]: warpgroup 0 stores, then
// warpgroup 1 adds, so the in-CTA sum has a fixed order (split tokens: each stores its own half).
// Warps whose 16 rows lie past the tile skip (kTokensOnM: the column groups past the tile).
template <int TN, int W>
__device__ __forceinline__ void park(float* red, const float (&acc)[kWgTokens<TN, W> / 2], int tid, int rows) {
  constexpr bool kSplit = kSplitTokens<TN, W>;
  constexpr int TW = kWgTokens<TN, W>;
  const int warp = tid / 32, lane = tid % 32;
  const int row = 16 * (warp % 4) + lane / 4;
  const bool live = kTokensOnM<TN, W> || 16 * (warp % 4) < rows;
  const int tok0 = kSplit ? (tid / 128) * TW : 0;
#pragma unroll
  for (int w = 0; w < (kSplit ? 1 : W); ++w) {
    if (!kSplit) ptx::named_barrier(1, 128 * W);
    if ((kSplit || tid / 128 == w) && live) {
#pragma unroll
      for (int j = 0; j < TW / 8; ++j) {
        if constexpr (kTokensOnM<TN, W>) {  // rows tokens tok0 + row and + 8, columns weight rows
          if (8 * j >= rows) continue;
          float2* r0 = reinterpret_cast<float2*>(&red[(tok0 + row) * kRedPitch + 8 * j + 2 * (lane % 4)]);
          float2* r1 = reinterpret_cast<float2*>(&red[(tok0 + row + 8) * kRedPitch + 8 * j + 2 * (lane % 4)]);
          const float2 o0 = w ? *r0 : make_float2(0.f, 0.f), o1 = w ? *r1 : make_float2(0.f, 0.f);
          *r0 = make_float2(o0.x + acc[4 * j + 0], o0.y + acc[4 * j + 1]);
          *r1 = make_float2(o1.x + acc[4 * j + 2], o1.y + acc[4 * j + 3]);
          continue;
        }
        const int t = tok0 + 8 * j + 2 * (lane % 4);
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

// ---- The pulled sum: rank r sums its share of the tile over ranks 0..split-1 in that order
// (deterministic) and writes it to C. Every rank has parked its partial tile in `red` (the caller
// waited on the cluster barrier).
//
// At 64 and 128 tokens (kWideSum: reduce_store_wide) this took 1.5-1.7 us after the cluster barrier, at split 1
// as at split 3 (s23 calls 3-5 timelines, 7168x16384 and 2112x7168): a thread's 2-4 quads, each a
// runtime division, one DSMEM load per rank waited for before the next was issued (the own rank's too,
// as a generic load), and four one-element stores each behind an indirect branch on C's dtype, with two
// warps a scheduler to hide none of it. The wide form works out its quads' walk before the cluster
// barrier (quad_walk), reads its own partial from its own shared memory, issues kReduceRanksInFlight
// ranks' loads before the first add, and stores a quad of C at once where C's base and row pitch allow,
// in a loop made per dtype. The sum's order, and so its bits, is the narrow form's: rank 0's partial,
// plus rank 1's, plus rank 2's, ... That took the tail to 0.8-1.0 us and the calls at 40-64 tokens to
// 0.94-0.98x on most weights (calls 5 and 12). Of what is left, about half waits for the other ranks'
// partials (DSMEM loads: ncu's long scoreboard, call 11) and the stores of C most of the rest (calls 6
// and 8). 8-32 tokens keep the narrow form: the same changes there moved their loops' machine code (the
// 32-token instance sits at its 96-register cap) and measured 1.02-1.11x slower on 576x7168 and
// 1536x7168 at M = 16-32 (s23 call 4).
constexpr int kReduceRanksInFlight = 4;
template <int TN>
constexpr bool kWideSum = TN >= 64;

__device__ __forceinline__ float4 partial_quad(const float* src, int from, int rank) {
  return from == rank ? *reinterpret_cast<const float4*>(src) : ptx::ld_cluster_f4(ptx::map_to_rank(src, from));
}

// Where a thread's quads of the wide sum lie: quad q is token t, rows 4 rq .. 4 rq + 3 of the tile, and a
// step of `threads` quads adds (dt, drq). Four runtime divisions, ~25 dependent instructions each: the
// caller works this out before the cluster barrier, while the other ranks still finish (after it, the
// code from the barrier to the first load held a fifth of the tail's ncu samples; s23 call 11).
struct QuadWalk {
  int q, q_end, t, rq, dt, drq;
};
template <int TN>
__device__ __forceinline__ QuadWalk quad_walk(const Params& p, int rank, int tid, int threads) {
  const int quads_per_token = p.rows / 4;
  const int quads = TN * quads_per_token;
  QuadWalk w;
  w.q = rank * quads / p.split + tid;
  w.q_end = (rank + 1) * quads / p.split;
  w.t = w.q / quads_per_token, w.rq = w.q - w.t * quads_per_token;
  w.dt = threads / quads_per_token, w.drq = threads - w.dt * quads_per_token;
  // Computed here, not sunk past the barrier to where they are used.
  asm volatile("" ::"r"(w.q), "r"(w.q_end), "r"(w.t), "r"(w.rq), "r"(w.dt), "r"(w.drq));
  return w;
}

template <int TN, int kDtype>
__device__ __forceinline__ void reduce_store_wide_as(const float* red, const Params& p, TileOrigin o, int rank,
                                                     int threads, QuadWalk w) {
  const int quads_per_token = p.rows / 4;
  int q = w.q, t = w.t, rq = w.rq;
  const int q_end = w.q_end, dt = w.dt, drq = w.drq;
  const bool whole_quads = c_quads_aligned(p.c, p.ldc, kDtype);
  for (; q < q_end; q += threads) {
    const float* src = red + t * kRedPitch + 4 * rq;
    float4 sum;
    for (int base = 0; base < p.split; base += kReduceRanksInFlight) {
      float4 v[kReduceRanksInFlight];
#pragma unroll
      for (int k = 0; k < kReduceRanksInFlight; ++k)
        if (base + k < p.split) v[k] = partial_quad(src, base + k, rank);
#pragma unroll
      for (int k = 0; k < kReduceRanksInFlight; ++k) {
        if (base + k >= p.split) continue;
        if (base + k == 0) {
          sum = v[k];
        } else {
          sum.x += v[k].x, sum.y += v[k].y, sum.z += v[k].z, sum.w += v[k].w;
        }
      }
    }
    const int m = o.m0 + t, n = o.n0 + 4 * rq;
    if (stores_token<TN>(o, m, p)) {
      const int64_t at = int64_t(m) * p.ldc + n;
      if (whole_quads && n + 3 < p.n) {
        store_out4_as<kDtype>(p.c, at, sum);
      } else {
        const float vals[4] = {sum.x, sum.y, sum.z, sum.w};
#pragma unroll
        for (int e = 0; e < 4; ++e)
          if (n + e < p.n) store_out_as<kDtype>(p.c, at + e, vals[e]);
      }
    }
    t += dt, rq += drq;
    if (rq >= quads_per_token) rq -= quads_per_token, ++t;
  }
}

// (store_out.cuh's store_quad_as and with_c_dtype do what the quad store above and the dispatch below
// do, and serve the tiled kernel's sum; through them ptxas scheduled 7 of the 64/128-token instances
// differently, not measured, so these stay written out.)
template <int TN>
__device__ __forceinline__ void reduce_store_wide(const float* red, const Params& p, TileOrigin o, int rank,
                                                  int threads, QuadWalk w) {
  if (p.c_dtype == BLOCKFP8_DTYPE_BF16)
    reduce_store_wide_as<TN, BLOCKFP8_DTYPE_BF16>(red, p, o, rank, threads, w);
  else if (p.c_dtype == BLOCKFP8_DTYPE_FP16)
    reduce_store_wide_as<TN, BLOCKFP8_DTYPE_FP16>(red, p, o, rank, threads, w);
  else
    reduce_store_wide_as<TN, BLOCKFP8_DTYPE_FP32>(red, p, o, rank, threads, w);
}

// The narrow form (8-32 tokens): one quad at a time, the other ranks one after another.
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
    if constexpr (TN == 8) {
      // The other ranks' partials are all requested before the first is added: one remote round trip,
      // not one per rank (measured 0.95-0.98x the time at M <= 4 on split 3-8 shapes). Only the 8-token
      // tile: the 32 extra registers spilled at 64 and 128 tokens (ptxas: 12-60 bytes), were neutral
      // at 32 (0.98 on split 3-8, 1.02 on split 1), and made the 16-token kernel 1.4-1.5x slower on
      // 16384x512 and 32768x512 (76 -> 105 registers; bench/results/logs/2026-11-30-1431446).
      // Rank order kept either way.
      float4 part[kMaxSplitK];
#pragma unroll
      for (int other = 1; other < kMaxSplitK; ++other)
        if (other < p.split) part[other] = ptx::ld_cluster_f4(ptx::map_to_rank(src, other));
#pragma unroll
      for (int other = 1; other < kMaxSplitK; ++other)
        if (other < p.split)
          sum.x += part[other].x, sum.y += part[other].y, sum.z += part[other].z, sum.w += part[other].w;
    } else {
      for (int other = 1; other < p.split; ++other) {
        const float4 v = ptx::ld_cluster_f4(ptx::map_to_rank(src, other));
        sum.x += v.x, sum.y += v.y, sum.z += v.z, sum.w += v.w;
      }
    }
    const int m = o.m0 + t;
    const int n = o.n0 + r;
    if (stores_token<TN>(o, m, p)) {
      const int64_t base = int64_t(m) * p.ldc + n;
      const float vals[4] = {sum.x, sum.y, sum.z, sum.w};
#pragma unroll
      for (int e = 0; e < 4; ++e)
        if (n + e < p.n) store_out(p.c, base + e, vals[e], p.c_dtype);
    }
  }
}

// ---- The owner's sum (kOwner instances; the launcher takes them only where every cluster has one tile).
// The other ranks push their partial tiles into rank 0's reduction buffers (st.async, counted on its
// inbox barrier) as soon as their math is done; rank 0 adds them to its own from local shared memory
// and stores C. Between its last k-block and its stores stand no cluster barrier and no remote read,
// where the pulled sum has a park, a cluster barrier and DSMEM round trips. A lead (k-blocks rank 0
// takes beyond an even share, BLOCKFP8_DECODE_LEAD) would let the pushes land while rank 0 still
// streams; measured, a lead of 2 gained 1.6 % more on 2112x7168 at M = 16 and lost on short slices
// (3072x1536: 1.04x), so the default is none (s18 call 3).
// Measured against the pulled sum, interleaved: 0.975-0.996x at M = 9-16 where it applies (2112x7168,
// 3072x1536, 4096x7168, 4608x7168, 6144x7168; s18 call 4); 1.01-1.13x at 32 tokens (call 3), where
// rank 0 takes twice the bytes in and every store: instantiated for 8 and 16 tokens only.
//
// A block is one warp's accumulators of one wgmma column group: 16 rows x 8 tokens, four floats a
// lane in wgmma's layout ((row, t), (row, t + 1), (row + 8, t), (row + 8, t + 1)), 512 bytes. Two
// warpgroups first add theirs through the last ring slot each used (free: one tile, every stage
// issued and read), warpgroup 0's first; warpgroup w then takes the column groups j with j % W == w.
// Rank r's block (warp, j) lands in rank 0's inbox at [r - 1][warp][j], and rank 0 adds the ranks in
// order: the pulled sum's order (each rank's warpgroups, then the ranks), so C is deterministic.
template <int TN, int W>
constexpr bool kOwnerSum = W == 2 && TN <= kSwapabOwnerSumMaxTokenTile;

template <int TN>
__device__ __forceinline__ void owner_sum_store(const float (&acc)[TN / 2], float* exchange0, float* exchange1,
                                                float* inbox, uint64_t* inbox_full, const Params& p, TileOrigin o,
                                                int rank, int tid) {
  constexpr int W = 2;
  constexpr int G = TN / 8;  // column groups
  const int wg = tid / 128, warp = (tid / 32) % 4, lane = tid % 32;
  const bool live = 16 * warp < p.rows;  // warps whose 16 rows lie past the tile hold nothing
  auto block = [&](float* base, int j) { return base + (warp * G + j) * 128 + lane * 4; };
  if (live) {
    float* mine = wg == 0 ? exchange0 : exchange1;
#pragma unroll
    for (int j = 0; j < G; ++j)
      *reinterpret_cast<float4*>(block(mine, j)) =
          make_float4(acc[4 * j + 0], acc[4 * j + 1], acc[4 * j + 2], acc[4 * j + 3]);
  }
  ptx::named_barrier(1, 128 * W);
  if (!live) return;
  const int rank_floats = p.rows / 16 * G * 128;  // one sending rank's blocks in the inbox
  if (rank == 0) ptx::mbar_wait_acquire_cluster(inbox_full, 0);
#pragma unroll
  for (int j = 0; j < G; ++j) {
    if (j % W != wg) continue;
    // 0 + a + b, as park adds (a -0 partial sums to +0 there too): with no lead, C is bitwise the pulled sum's.
    const float4 a = *reinterpret_cast<const float4*>(block(exchange0, j));
    const float4 b = *reinterpret_cast<const float4*>(block(exchange1, j));
    float4 v = make_float4((0.f + a.x) + b.x, (0.f + a.y) + b.y, (0.f + a.z) + b.z, (0.f + a.w) + b.w);
    if (rank > 0) {
      ptx::st_async_f4(ptx::map_to_rank(block(inbox + (rank - 1) * rank_floats, j), 0), v,
                       ptx::map_to_rank(inbox_full, 0));
      continue;
    }
    for (int r = 1; r < p.split; ++r) {
      const float4 u = *reinterpret_cast<const float4*>(block(inbox + (r - 1) * rank_floats, j));
      v.x += u.x, v.y += u.y, v.z += u.z, v.w += u.w;
    }
    const float vals[4] = {v.x, v.y, v.z, v.w};
    const int n = o.n0 + 16 * warp + lane / 4;
    const int m = o.m0 + 8 * j + 2 * (lane % 4);
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int mm = m + (e & 1), nn = n + 8 * (e >> 1);
      if (stores_token<TN>(o, mm, p) && nn < p.n) store_out(p.c, int64_t(mm) * p.ldc + nn, vals[e], p.c_dtype);
    }
  }
}

// Threads of a CTA: W math warpgroups and the producer warp.
template <int W>
constexpr int kCtaThreads = 128 * W + 32;

// ---- Occupancy: how many CTAs of an instantiation share an SM. The dispatcher's cost model counts
// on it (reg_ctas reports it), so two instantiations have it pinned:
//
// A warp takes its registers from one of the SM's four 16 K register partitions. A 288-thread CTA
// (9 warps) shares an SM with a second only if each partition holds five of its warps: 96 registers or
// fewer (at 104, four); a third needs seven a partition, 72 or fewer.
constexpr int regs_for_ctas(int ctas, int threads) {
  const int warps_per_partition = (ctas * threads / 32 + 3) / 4;
  return (65536 / 4 / warps_per_partition / 32) & ~7;  // registers are allocated 8 a thread at a time
}

// Raised to two: the 32-token, 2-warpgroup kernel compiles to 107 registers on its own, so it ran one
// CTA an SM and short-K shapes at M = 17-32 took up to 1.8x their M = 16 time (16384x512: 9.46
// against 5.34 us, run ecdbf6e). Held to regs_for_ctas(2, 288) = 96 it fits two: 0.63-0.72x there,
// about 1.01x on long-K shapes (logs/2026-11-30-s7-ab/call8). The others keep what they compile to;
// the launch bounds keep their minimum of one CTA an SM, without which ptxas allocated them
// differently (t64 155 -> 158).
template <int TN, int W, bool kFused>
constexpr int kMaxRegs =
    (TN == 32 && W == 2 && !kFused) ? regs_for_ctas(2, kCtaThreads<W>) : std::min(255, (65536 / kCtaThreads<W>) & ~7);
static_assert(regs_for_ctas(2, kCtaThreads<2>) == 96 && regs_for_ctas(3, kCtaThreads<2>) == 72, "partition rule");

// Lowered to two (0: no cap): `align_smem_1024` took the 16-token, 2-warpgroup kernel from 76 to 69
// registers, so three of its CTAs fit an SM where two did, and M = 16 on K = 512 / 1536 weights ran
// 1.07-1.19x slower. Holding it to two by the shared memory it asks for (capped_smem) measured
// 0.82-0.93x at M = 16 on six shapes and 1.00 at M = 8 and 32 (2026-11-30, logs/2026-11-30-s7-ab).
// The 8-token kernel's owner's-sum instance too (62 registers: three would fit), so that it places
// its CTAs as the pulled sum's (88 registers: two) does.
template <int TN, int W>
constexpr int kCtasPerSmCap = ((TN == 16 || TN == 8) && W == 2) ? 2 : 0;

template <int TN, int W, bool kFused, bool kOwner, bool kScaleBox = false, bool kStraddle = false>
__global__ void __launch_bounds__(kCtaThreads<W>, 1) __maxnreg__((kMaxRegs<TN, W, kFused>))
    swapab_splitk_kernel(const __grid_constant__ CUtensorMap tmap_a, const __grid_constant__ CUtensorMap tmap_b,
                         const Params p, const __grid_constant__ CUtensorMap tmap_sa) {
  using L = Layout<TN>;
  constexpr int kConsumers = 128 * W;
  extern __shared__ uint8_t smem_raw[];
  uint8_t* smem = ptx::align_smem_1024(smem_raw);
  const int stages = p.stages;
  using S = StageLayout<TN, kFused>;
  const int stage_bytes = S::bytes(p.kblocks, p.rows);
  // What TMA delivers into a stage: every box in full, out-of-bounds parts included.
  const int stage_tx = kDiagNoTokens && !kFused        ? p.kblocks * p.rows * kKBlockBytes
                       : kTailTokens<TN, kFused> ? p.kblocks * (p.rows + p.token_rows) * kKBlockBytes
                                                 : stage_bytes;
  const int tid = threadIdx.x;
  // The warp read from lane 0, so that ptxas knows it is warp-uniform: the producer/consumer branch and
  // what derives from it then stay on the uniform datapath (3-10 % fewer instructions in most instances,
  // no R2UR before the one-warpgroup instances' wgmmas). 0.95-0.98x at M = 16-128 on 576x7168, 0.96-0.98x
  // at M = 48-128 on 2112x7168, 0.95x at M = 48-64 on 7168x16384, 1.00x elsewhere (s26 call 10).
  const int warp = __shfl_sync(0xffffffffu, tid / 32, 0), lane = tid % 32;
  const int rank = blockIdx.x % p.split;  // == %cluster_ctarank: the cluster spans consecutive x
  const int64_t cluster = blockIdx.x / p.split;
  const int64_t clusters = gridDim.x / p.split;
  const KSlice ks = k_slice<kOwner>(p, rank);
  const int kb_begin = ks.begin, kb_count = ks.count;
  const int stages_per_tile = (kb_count + p.kblocks - 1) / p.kblocks;
  const int kb_slice = swapab_kb_slice(p.kb_total, p.split, kOwner ? p.lead : 0);
  static_assert(!kOwner || kOwnerSum<TN, W>, "the owner's sum takes two warpgroups alternating stages");
  static_assert(!kScaleBox || (kTmaScales<TN, kFused> && !kOwner),
                "the box: 32+ tokens, unfused; the owner's inbox barrier would share its place");
  static_assert(!kStraddle || (!kFused && !kOwner), "straddling tiles: the plain and the box instances only");
  uint8_t* resident = smem + stages * stage_bytes;  // fused only: kb_slice token tiles
  float* red = reinterpret_cast<float*>(resident + (kFused ? kb_slice * TN * kKBlockBytes : 0));
  float* scales = red + 2 * L::kRedFloats;
  uint64_t* full = reinterpret_cast<uint64_t*>(scales + 2 * kb_slice * L::kScalePitch);
  uint64_t* empty = full + stages;
  // The barrier a ring position's stage lands on: its warpgroup's by the position's parity.
  auto landed = [&](int slot, int position_parity) {
    return full_barrier<TN, W>(full, stages, slot, position_parity != 0);
  };
  uint64_t* inbox_full = reinterpret_cast<uint64_t*>(scales) - 1;  // owner's sum: every rank's blocks landed
  // kScaleBox: the box's barrier, in the reduction buffers' last 8 bytes (the box stops short of them:
  // swapab_scale_box_at).
  uint64_t* scales_landed = reinterpret_cast<uint64_t*>(scales) - 1;

  BLOCKFP8_MARK(0, tid == 0);  // entry
  // The TMA descriptors first: their fetch overlaps the barrier set-up instead of delaying the first
  // load (the timeline put 1.4 us between "may load" and the first stage landing).
  if (warp == kConsumers / 32 && lane == 0) {
    if (!kFused) ptx::prefetch_tensormap(&tmap_a);
    ptx::prefetch_tensormap(&tmap_b);
    if (kScaleBox) ptx::prefetch_tensormap(&tmap_sa);
  }
  if (tid == 0) {
    for (int s = 0; s < stages; ++s) {
      ptx::mbar_init(&full[s], 1);     // the producer's arrive.expect_tx; the TMA bytes do the rest
      ptx::mbar_init(&empty[s], kSplitTokens<TN, W> ? kConsumers : 128);  // every thread that reads the stage
      if (kAlternate<TN, W>) ptx::mbar_init(landed(s, 1), 1);
    }
    if (kOwner) ptx::mbar_init(inbox_full, 1);  // rank 0's arrive.expect_tx; the pushed bytes do the rest
    if (kScaleBox) ptx::mbar_init(scales_landed, 1);
    ptx::fence_barrier_init();
  }
  __syncthreads();
  BLOCKFP8_MARK(9, tid == 0);  // barriers initialised
  // Launched with programmatic dependent launch: the next kernel may start its prologue now. Every
  // thread waits for the preceding kernel (grid_dependency_wait) before it touches memory that
  // kernel may write (A, a_scale, X, C; B and b_scale too unless const_weights).
  ptx::launch_dependents();
  // Owner's sum: the cluster barrier's first phase says every CTA's barriers are initialised (the
  // pushing ranks wait on it before their first st.async); its second keeps rank 0 alive until its
  // inbox is complete, so no pushed byte is still in flight when a CTA exits. Relaxed:
  // fence_barrier_init released the initialisation at cluster scope.
  if (kOwner) ptx::cluster_arrive_relaxed();

  // Per tile, every thread of the cluster arrives on the cluster barrier once (the producer as soon
  // as it has issued the tile's loads, the math warps once their partial tile is parked) and waits
  // once before arriving again; the last pair keeps every CTA's shared memory alive until the other
  // ranks have read it.
  if (warp == kConsumers / 32) {
    // ---------------- producer warp ----------------
    const uint64_t weight_policy = ptx::l2_evict_first();
    const uint64_t act_policy = ptx::l2_evict_last();
    auto load_weight = [&](int slot, uint64_t* bar, int kb, const TileOrigin& o) {
      uint8_t* dst = smem + slot * stage_bytes + S::weight(p.kblocks, 0, p.rows);
      if (p.kblocks == 1)  // a 2-D box: measured ~0.8 us faster per call than the same box in 3-D
        ptx::tma_load_2d(dst, &tmap_b, bar, kb * kKBlockBytes, o.n0, weight_policy);
      else
        ptx::tma_load_3d(dst, &tmap_b, bar, 0, o.n0, kb, weight_policy);
    };
    // Constant weights: the first tile's first ring-full of weight boxes goes out before the wait for
    // the preceding kernel, so the weight stream overlaps its tail. (It faulted in 15-22 % of runs of
    // a graph of back-to-back calls until the alternating warpgroups got a full barrier each, kAlternate:
    // the early ring-full let a stage land out of order; 0 of 74 since, s21 calls 1-2.)
    const int prefetched = !kFused && p.const_weights && cluster < p.tiles ? min(stages, stages_per_tile) : 0;
    BLOCKFP8_MARK(10, lane == 0);  // tensor maps prefetched, policies made: about to wait for the previous grid
    if (lane == 0) {
      const TileOrigin o = tile_origin<TN>(p, cluster);
      for (int q = 0; q < prefetched; ++q) {
        ptx::mbar_arrive_expect_tx(landed(q, q & 1), stage_tx);  // tokens included
        load_weight(q, landed(q, q & 1), kb_begin + q * p.kblocks, o);
      }
    }
    ptx::grid_dependency_wait();
    BLOCKFP8_MARK(1, lane == 0);  // the producer may load
    RingPos pos{0, 0};
    int issued = 0;  // stages issued so far (the ring position): the first `stages` need no free slot
    bool first = true;
    for (int64_t t = cluster; t < p.tiles; t += clusters) {
      const TileOrigin o = tile_origin<TN>(p, t);
      for (int q = 0, kb = kb_begin; q < stages_per_tile; ++q, kb += p.kblocks, pos.advance(1, stages)) {
        // A box may run past the slice: those k-blocks go unused.
        uint64_t* bar = landed(pos.slot, issued & 1);
        if (issued++ >= stages) ptx::mbar_wait(&empty[pos.slot], pos.phase() ^ 1);
        BLOCKFP8_MARK(11, lane == 0 && issued == stages + 1);  // a math warpgroup gave the first slot back
        BLOCKFP8_MARK(13, lane == 0 && q == swapab_mid_stage(stages_per_tile, kSplitTokens<TN, W> ? 1 : W));
        uint8_t* stage = smem + pos.slot * stage_bytes;
        if (lane == 0) {
          const bool weight_sent = first && q < prefetched;
          if (!weight_sent) {
            // Full boxes, out-of-bounds parts included.
            ptx::mbar_arrive_expect_tx(bar, stage_tx);
            load_weight(pos.slot, bar, kb, o);
          }
          if constexpr (!kFused && !kDiagNoTokens) {  // the token tiles
            if (p.kblocks == 1)
              ptx::tma_load_2d(stage, &tmap_a, bar, kb * kKBlockBytes, o.m0, act_policy);
            else
              ptx::tma_load_3d(stage, &tmap_a, bar, 0, o.m0, kb, act_policy);
          }
        }
      }
      __syncwarp();
      BLOCKFP8_MARK(2, lane == 0 && first);  // the first tile's loads are issued
      if (!kOwner) {
        if (!first) ptx::cluster_wait();  // the previous tile's barrier: at most one tile ahead
        ptx::cluster_arrive();
      }
      first = false;
    }
    ptx::cluster_wait();
  } else {
    // ---------------- consumer warpgroups ----------------
    ptx::grid_dependency_wait();  // scales, X and C belong to the stream's order
    int j = 0;
    RingPos tile_start{0, 0};
    const ConsumerLoop<TN, W, kFused, kStraddle> loop{smem, scales, full, stages, p.kblocks, kb_count, p.rows, resident};
    for (int64_t t = cluster; t < p.tiles; t += clusters, ++j, tile_start.advance_far(stages_per_tile, stages)) {
      const TileOrigin o = tile_origin<TN>(p, t);
      float* tile_scales = scales + (j & 1) * kb_slice * L::kScalePitch;
      float* tile_red = red + (j & 1) * L::kRedFloats;
      if (j == 0) {
        if constexpr (kFused) {  // one token tile (M <= TN): its quantised slice serves every tile
          quantize_slice<TN>(resident, scales, scales + kb_slice * L::kScalePitch, p, kb_begin, kb_count, tid,
                             kConsumers);
          load_b_scales<TN>(tile_scales, p, o.n0, kb_begin, kb_count, tid, kConsumers);
        } else if constexpr (kScaleBox) {
          if (tid == 0) {
            ptx::mbar_arrive_expect_tx(scales_landed, uint32_t(TN * p.scale_box_kb * 4));
            ptx::tma_load_2d(red + p.scale_box_at, &tmap_sa, scales_landed, kb_begin / 4 * 4, o.m0,
                             ptx::l2_evict_last());
          }
          load_b_scales<TN, kStraddle>(tile_scales, p, o.n0, kb_begin, kb_count, tid, kConsumers);
          ptx::mbar_wait(scales_landed, 0);
          scales_from_box<TN>(tile_scales, red + p.scale_box_at + kb_begin % 4, p.scale_box_kb, kb_count, tid,
                              kConsumers);
        } else {
          load_scales<TN, kStraddle>(tile_scales, p, o.m0, o.n0, kb_begin, kb_count, tid, kConsumers);
        }
        if (kOwner && rank == 0 && tid == 0)  // every other rank's blocks
          ptx::mbar_arrive_expect_tx(inbox_full, uint32_t((p.split - 1) * p.rows * TN * 4));
      }
      ptx::named_barrier(2, kConsumers);  // this tile's scales (and fused: tokens) are in shared memory

      float acc[kWgTokens<TN, W> / 2];
#pragma unroll
      for (int e = 0; e < kWgTokens<TN, W> / 2; ++e) acc[e] = 0.f;
      ConsumerLoop<TN, W, kFused, kStraddle> tile_loop = loop;
      tile_loop.scales = tile_scales;
#ifdef BLOCKFP8_TIMELINE
      if (tid == 0)
        tile_loop.mid_kb = swapab_mid_stage((kb_count + p.kblocks - 1) / p.kblocks, kSplitTokens<TN, W> ? 1 : W) * p.kblocks;
#endif
      BLOCKFP8_MARK(3, tid == 0 && j == 0);  // scales in shared memory
      // The warpgroup read from lane 0, so that ptxas knows it is warp-uniform (fewer R2UR in the owner's-sum
      // instances; see issue()).
      tile_loop.run(__shfl_sync(0xffffffffu, tid / 128, 0), tile_start, acc,
                    kStraddle ? 128 - o.n0 % 128 : kSwapabRowsPerTile);
      BLOCKFP8_MARK(4, tid == 0 && j == 0);  // warpgroup 0's math done
      if constexpr (kOwner) {  // one tile: this is the last
        // Each warpgroup's last stage (w, w + 2, ...): its slot is free once its own wgmma are done.
        const int last0 = stages_per_tile - 1 - (stages_per_tile - 1) % 2;
        const int last1 = stages_per_tile - 1 - (stages_per_tile % 2);
        float* exchange0 = reinterpret_cast<float*>(smem + (last0 % stages) * stage_bytes);
        float* exchange1 = reinterpret_cast<float*>(smem + (last1 % stages) * stage_bytes);
        ptx::cluster_wait();  // the first phase: rank 0's inbox barrier is initialised
        BLOCKFP8_MARK(5, tid == 0 && j == 0);
        owner_sum_store<TN>(acc, exchange0, exchange1, red, inbox_full, p, o, rank, tid);
        BLOCKFP8_MARK(6, tid == 0 && j == 0);  // stored (rank 0) or pushed
        BLOCKFP8_MARK(18, j == 0 && last_to_store<kConsumers>());
        break;
      }
      park<TN, W>(tile_red, acc, tid, p.rows);
      QuadWalk walk{};
      if constexpr (kWideSum<TN>) walk = quad_walk<TN>(p, rank, tid, kConsumers);

      ptx::cluster_arrive();
      if (t + clusters < p.tiles) {  // the next tile's scales, while the other ranks finish
        const TileOrigin next = tile_origin<TN>(p, t + clusters);
        float* next_scales = scales + ((j + 1) & 1) * kb_slice * L::kScalePitch;
        if constexpr (kFused)
          load_b_scales<TN>(next_scales, p, next.n0, kb_begin, kb_count, tid, kConsumers);
        else
          load_scales<TN, kStraddle>(next_scales, p, next.m0, next.n0, kb_begin, kb_count, tid, kConsumers);
      }
      ptx::cluster_wait();
      BLOCKFP8_MARK(5, tid == 0 && j == 0);  // every rank parked
      if constexpr (kWideSum<TN>)
        reduce_store_wide<TN>(tile_red, p, o, rank, kConsumers, walk);
      else
        reduce_store<TN>(tile_red, p, o, rank, tid, kConsumers);
      BLOCKFP8_MARK(6, tid == 0 && j == 0);  // stored
      BLOCKFP8_MARK(18, j == 0 && last_to_store<kConsumers>());
    }
  }
  // Relaxed: this barrier only keeps each CTA's shared memory alive until the other ranks have read
  // it, and a thread's remote reads are complete once their sum was stored; a release arrival would
  // also wait for those C stores to become visible first.
  ptx::cluster_arrive_relaxed();
  ptx::cluster_wait();
  BLOCKFP8_MARK(7, tid == 0);  // exit
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

template <int TN, int W, bool kFused = false, bool kOwner = false, bool kScaleBox = false, bool kStraddle = false>
cudaError_t prepare(int smem_bytes) {
  static std::atomic<int> raised[kMaxDevices];
  return raise_smem_limit(swapab_splitk_kernel<TN, W, kFused, kOwner, kScaleBox, kStraddle>, raised, smem_bytes);
}

// Clusters of this instantiation at this footprint the device holds at once: the persistent grid.
// cudaOccupancyMaxActiveClusters costs microseconds, so answers are cached per (device, split,
// shared memory) in a small table of packed 64-bit entries (key high, answer low: one atomic word,
// so a reader never pairs one key with another's answer; a collision only costs a re-query).
template <int TN, int W, bool kFused, bool kOwner, bool kScaleBox = false, bool kStraddle = false>
int resident_clusters(int device, int split, int smem) {
  static std::atomic<uint64_t> cache[64];
  const uint32_t key = (uint32_t(device) << 24) | (uint32_t(split) << 20) | uint32_t(smem);  // smem < 2^20
  std::atomic<uint64_t>& slot = cache[(key * 2654435761u) >> 26];
  const uint64_t hit = slot.load(std::memory_order_relaxed);
  if (hit >> 32 == key) return int(uint32_t(hit));
  cudaLaunchAttribute attr[2];
  const cudaLaunchConfig_t lc = launch_config(attr, split, dim3(unsigned(256 * split)), kCtaThreads<W>, smem, nullptr);
  int clusters = 0;
  if (cudaOccupancyMaxActiveClusters(&clusters, swapab_splitk_kernel<TN, W, kFused, kOwner, kScaleBox, kStraddle>, &lc) !=
      cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  slot.store((uint64_t(key) << 32) | uint32_t(clusters), std::memory_order_relaxed);
  return clusters;
}

Params make_params(const Problem& p, const blockfp8_config_t& cfg, int stages) {
  Params prm{};
  prm.m = int(p.m), prm.n = int(p.n), prm.kb_total = int(p.k_blocks());
  prm.rows = cfg.weight_rows;
  prm.tiles_n = int((p.n + cfg.weight_rows - 1) / cfg.weight_rows);
  prm.tiles = int64_t(prm.tiles_n) * ((p.m + cfg.token_tile - 1) / cfg.token_tile);
  prm.a_scale = p.a_scale, prm.sa_m = p.a_scale_stride_m, prm.sa_k = p.a_scale_stride_k;
  prm.b_scale = p.b_scale, prm.sb_n = p.b_scale_stride_n, prm.sb_k = p.b_scale_stride_k;
  prm.c = p.c, prm.ldc = p.ldc, prm.c_dtype = p.c_dtype;
  prm.split = cfg.split_k, prm.stages = stages, prm.kblocks = cfg.stage_kblocks;
  prm.const_weights = swapab_streams_weight_early(cfg.flags, cfg.token_tile);
  return prm;
}

// Enqueue one persistent grid: as many clusters as the device holds at once at this footprint
// (several CTAs share an SM where the K slice is short), each walking the tiles `clusters` apart.
// The dispatcher checked that at least one cluster fits.
template <int TN, int W, bool kFused, bool kOwner, bool kScaleBox = false, bool kStraddle = false>
blockfp8_status_t enqueue(const CUtensorMap& map_a, const CUtensorMap& map_b, const CUtensorMap& map_sa,
                          const Params& prm, int smem, const DeviceInfo& dev, cudaStream_t stream) {
  if (prepare<TN, W, kFused, kOwner, kScaleBox, kStraddle>(smem) != cudaSuccess) return BLOCKFP8_ERROR_CUDA;
  const int resident = resident_clusters<TN, W, kFused, kOwner, kScaleBox, kStraddle>(dev.ordinal, prm.split, smem);
  const int64_t clusters = std::min<int64_t>(prm.tiles, std::max(1, resident > 0 ? resident : dev.max_clusters[prm.split]));
  cudaLaunchAttribute attr[2];
  const cudaLaunchConfig_t lc =
      launch_config(attr, prm.split, dim3(unsigned(clusters * prm.split)), kCtaThreads<W>, smem, stream);
  if (cudaLaunchKernelEx(&lc, swapab_splitk_kernel<TN, W, kFused, kOwner, kScaleBox, kStraddle>, map_a, map_b, prm, map_sa) !=
      cudaSuccess)
    return BLOCKFP8_ERROR_CUDA;
  return BLOCKFP8_SUCCESS;
}

// The shared memory an instantiation asks for, raised so that no more than kCtasPerSmCap CTAs fit.
template <int TN, int W>
int capped_smem(int smem, const DeviceInfo& dev) {
  if constexpr (kCtasPerSmCap<TN, W> > 0) return std::max(smem, smem_for_ctas_per_sm(kCtasPerSmCap<TN, W>, dev));
  return smem;
}

// Whether the owner's sum runs, and with what lead (Params::lead): where swapab_owner_sum_ok allows
// it, its footprint fits, and every cluster has one tile (the inbox serves one).
// BLOCKFP8_DECODE_LEAD (diagnostic): the lead, default 0; negative: the pulled sum everywhere. With
// no lead C is bitwise the pulled sum's; with one, K is sliced differently, so the fused kernel and
// the two-launch path agree bitwise only where both take it.
template <int TN, int W, bool kFused, typename SmemOf>
bool owner_sum_lead(Params& prm, const blockfp8_config_t& cfg, const DeviceInfo& dev, SmemOf smem_of) {
  if constexpr (!kOwnerSum<TN, W>) {
    return false;
  } else {
    static const int lead = env_int("BLOCKFP8_DECODE_LEAD", 0);
    if (!swapab_owner_sum_ok(cfg, prm.kb_total, lead)) return false;
    const int smem = smem_of(swapab_kb_slice(prm.kb_total, prm.split, lead));
    if (smem > dev.smem_per_block_optin || prepare<TN, W, kFused, true>(smem) != cudaSuccess) return false;
    if (prm.tiles > resident_clusters<TN, W, kFused, true>(dev.ordinal, prm.split, smem)) return false;
    prm.lead = lead;
    return true;
  }
}

// kTmaScales: whether the first tile's a_scales come by one TMA box (a kScaleBox instance), and its map:
// row-major a_scales, a box ([TN][box_kb] from a 16-byte aligned k-block: swapab_scale_box_kb) with room
// in shared memory (swapab_scale_box_at), a slice that needs more than one round of load_scales, and a
// map the driver encodes (16-byte aligned base and rows; box_kb <= 256). Never with the owner's sum
// (8 and 16 tokens), so the slices are even shares.
// BLOCKFP8_DECODE_SCALES_TMA=0 (diagnostic): load_scales everywhere.
template <int TN, int W>
bool scales_by_tma(Params& prm, const Problem& p, CUtensorMap* map_sa) {
  static const bool enabled = env_switch("BLOCKFP8_DECODE_SCALES_TMA", true);
  const int kb_slice = swapab_kb_slice(prm.kb_total, prm.split);
  const int box_kb = swapab_scale_box_kb(prm.kb_total, prm.split);
  const int box_at = swapab_scale_box_at(TN, kb_slice, box_kb);
  const bool one_round = kb_slice * (TN + 1) <= kScaleLoadsInFlight * 128 * W;  // loads of the math threads
  if (!enabled || p.a_scale_stride_k != 1 || box_at < 0 || box_kb > 256 || one_round) return false;
  TileMapSpec s;
  s.base = p.a_scale, s.type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32, s.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  s.rows = p.m, s.cols = p.k_blocks(), s.ld_bytes = p.a_scale_stride_m * 4;
  s.box_cols = box_kb, s.box_rows = TN, s.box_kblocks = 1;
  if (!cached_tile_map(map_sa, s)) return false;
  prm.scale_box_kb = box_kb, prm.scale_box_at = box_at;
  return true;
}

template <int TN, int W>
blockfp8_status_t launch(const Problem& p, const blockfp8_config_t& cfg, const DeviceInfo& dev, cudaStream_t stream) {
  auto smem_of = [&](int kb_slice) {
    return capped_smem<TN, W>(swapab_smem_bytes(TN, cfg.weight_rows, cfg.stage_kblocks, cfg.stages, kb_slice), dev);
  };
  Params prm = make_params(p, cfg, cfg.stages);
  // swapab_token_box_rows keeps full boxes on several-k-block stages. Not a 2-D box a k-block there
  // instead: that producer branch, never taken in the benchmark, still made the one-k-block launches
  // 1.02-1.07x slower at M = 40-63 (s19 call 7 against call 8).
  prm.token_rows = swapab_token_box_rows(TN, p.m, cfg.stage_kblocks);
  const bool owner = owner_sum_lead<TN, W, false>(prm, cfg, dev, smem_of);
  const int smem = smem_of(swapab_kb_slice(prm.kb_total, prm.split, prm.lead));
  CUtensorMap map_a, map_b, map_sa;
  if (!cached_tile_map(&map_a, operand_map(p.a, p.m, p.k, p.lda, prm.token_rows, cfg.stage_kblocks)) ||
      !cached_tile_map(&map_b, operand_map(p.b, p.n, p.k, p.ldb, cfg.weight_rows, cfg.stage_kblocks)))
    return BLOCKFP8_ERROR_CUDA;
  map_sa = map_b;  // only kScaleBox instances read tmap_sa
  if (swapab_rows_straddle(cfg.weight_rows)) {  // the dispatcher's rule (swapab_straddle_ok) checked it runs
    if constexpr (swapab_straddle_ok(TN, W)) {
      if constexpr (kTmaScales<TN, false>)
        if (scales_by_tma<TN, W>(prm, p, &map_sa))
          return enqueue<TN, W, false, false, true, true>(map_a, map_b, map_sa, prm, smem, dev, stream);
      return enqueue<TN, W, false, false, false, true>(map_a, map_b, map_sa, prm, smem, dev, stream);
    }
    return BLOCKFP8_ERROR_INVALID_CONFIG;
  }
  if constexpr (kOwnerSum<TN, W>)
    if (owner) return enqueue<TN, W, false, true>(map_a, map_b, map_sa, prm, smem, dev, stream);
  if constexpr (kTmaScales<TN, false>)
    if (scales_by_tma<TN, W>(prm, p, &map_sa))
      return enqueue<TN, W, false, false, true>(map_a, map_b, map_sa, prm, smem, dev, stream);
  return enqueue<TN, W, false, false>(map_a, map_b, map_sa, prm, smem, dev, stream);
}

template <int TN>
blockfp8_status_t launch_fused(const Problem& p, const FusedA& x, const blockfp8_config_t& cfg, int stages,
                               const DeviceInfo& dev, cudaStream_t stream) {
  auto smem_of = [&](int kb_slice) {
    return swapab_fused_smem_bytes(TN, cfg.weight_rows, cfg.stage_kblocks, stages, kb_slice);
  };
  Params prm = make_params(p, cfg, stages);
  const bool owner = owner_sum_lead<TN, 2, true>(prm, cfg, dev, smem_of);
  const int smem = smem_of(swapab_kb_slice(prm.kb_total, prm.split, prm.lead));
  CUtensorMap map_b;
  if (!cached_tile_map(&map_b, operand_map(p.b, p.n, p.k, p.ldb, cfg.weight_rows, cfg.stage_kblocks)))
    return BLOCKFP8_ERROR_CUDA;
  prm.x = static_cast<const __nv_bfloat16*>(x.x), prm.ldx = x.ldx, prm.ue8m0 = x.fmt == BLOCKFP8_SCALE_UE8M0;
  // No A map: the kernel never reads it.
  if constexpr (kOwnerSum<TN, 2>)
    if (owner) return enqueue<TN, 2, true, true>(map_b, map_b, map_b, prm, smem, dev, stream);
  return enqueue<TN, 2, true, false>(map_b, map_b, map_b, prm, smem, dev, stream);
}

template <int TN>
blockfp8_status_t launch_tn(const Problem& p, const blockfp8_config_t& cfg, const DeviceInfo& dev,
                            cudaStream_t stream) {
  if (cfg.warpgroups == 2) return launch<TN, 2>(p, cfg, dev, stream);
  return launch<TN, 1>(p, cfg, dev, stream);
}

template <int TN, int W>
int reg_ctas() {
  int n = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, swapab_splitk_kernel<TN, W, false, false>, kCtaThreads<W>, 0) !=
      cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  if constexpr (kCtasPerSmCap<TN, W> > 0) n = std::min(n, kCtasPerSmCap<TN, W>);
  return n;
}

}  // namespace

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

blockfp8_status_t launch_swapab_fused(const Problem& p, const FusedA& x, const blockfp8_config_t& cfg, int stages,
                                      const DeviceInfo& dev, cudaStream_t stream) {
  if (cfg.warpgroups != 2 || p.m > cfg.token_tile) return BLOCKFP8_ERROR_INVALID_CONFIG;
  switch (cfg.token_tile) {
    case 8: return launch_fused<8>(p, x, cfg, stages, dev, stream);
    case 16: return launch_fused<16>(p, x, cfg, stages, dev, stream);
    case 32: return launch_fused<32>(p, x, cfg, stages, dev, stream);
    default: return BLOCKFP8_ERROR_INVALID_CONFIG;
  }
}

int swapab_max_active_clusters(int split, int smem_bytes) {
  if (prepare<8, 1>(smem_bytes) != cudaSuccess) return 0;
  cudaLaunchAttribute attr[2];
  const cudaLaunchConfig_t lc = launch_config(attr, split, dim3(unsigned(256 * split)), 128 + 32, smem_bytes, nullptr);
  int clusters = 0;
  if (cudaOccupancyMaxActiveClusters(&clusters, swapab_splitk_kernel<8, 1, false, false>, &lc) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return clusters;
}

#ifdef BLOCKFP8_TIMELINE
int read_timeline(unsigned long long* host, int ctas) { return copy_timeline(g_timeline, host, ctas); }
#endif

int swapab_reg_ctas(int token_tile, int warpgroups) {
  const bool two = warpgroups == 2;
  switch (token_tile) {
    case 8: return two ? reg_ctas<8, 2>() : reg_ctas<8, 1>();
    case 16: return two ? reg_ctas<16, 2>() : reg_ctas<16, 1>();
    case 32: return two ? reg_ctas<32, 2>() : reg_ctas<32, 1>();
    case 64: return two ? reg_ctas<64, 2>() : reg_ctas<64, 1>();
    case 128: return two ? reg_ctas<128, 2>() : reg_ctas<128, 1>();
    default: return 0;
  }
}

}  // namespace blockfp8::detail
