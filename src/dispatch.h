// The dispatcher: which kernel and which configuration for (M, N, K) on a given device.
// Host-only and free of CUDA calls: the device is described by DeviceInfo, so the rules are
// unit-tested without a GPU (tests/unit/test_dispatch.cpp).
#pragma once

#include <cstdint>

#include "blockfp8/blockfp8.h"

namespace blockfp8::detail {

struct DeviceInfo {
  int sm_count = 132;
  int cc_major = 9, cc_minor = 0;
  int smem_per_block_optin = 232448;  // bytes a CTA may use after cudaFuncSetAttribute
  // max_clusters[s]: how many clusters of s CTAs (one CTA per SM, the decode kernel's footprint)
  // the device can hold at once; 0 = unknown. Clusters are placed within one GPC, so this is
  // not sm_count / s on Hopper (the H200 holds 30 clusters of 4, not 33).
  // The defaults are one H200's, as the device query read them (s13 call 5, Occupancy.ResidentClusters...).
  int max_clusters[9] = {0, 132, 66, 39, 30, 22, 17, 15, 15};
  int ordinal = 0;                  // the CUDA device index (keys the launchers' caches)
  int smem_per_sm = 233472;         // bytes of shared memory one SM shares among its CTAs
  int smem_reserved_per_cta = 1024;  // what the runtime keeps of it per resident CTA
  // swapab_reg_ctas[i][w]: decode CTAs of token tile kSwapabTokenTiles[i] with w math warpgroups
  // one SM holds by registers and threads alone (no shared memory): queried per kernel instantiation
  // at device start; the defaults follow the ptxas report (docs/ptxas-report.txt), counted as the
  // occupancy API does: a warp's registers come from one of the SM's four 16 K partitions, so e.g.
  // 9-warp CTAs at 88 registers (2816 a warp, five warps a partition) fit two, not three. The
  // 16-token, 2-warpgroup kernel's two is its shared-memory cap (kernels/swapab_splitk.cu).
  int swapab_reg_ctas[5][3] = {{0, 4, 2}, {0, 5, 2}, {0, 3, 2}, {0, 2, 1}, {0, 1, 1}};
  // Measured on the H200 (bench/results): one SM pulls about 37 GB/s out of L2/HBM with TMA, and
  // all of them together about 4.6 TB/s out of HBM. Bytes per nanosecond.
  double sm_bytes_per_ns = 37.0;
  double hbm_bytes_per_ns = 4600.0;
  // Two math warpgroups get through a k-block of a small token tile (wait, 4 chained wgmma,
  // promotion) in about this long however few rows it holds: below ~7 KB a k-block, the math, not
  // the bytes, sets the pace (bench/results: 16-row tiles at 56 k-blocks a CTA ran 1.6x slower than
  // 64-row tiles at 19). Scaled up with the token tile in swapab_cost_ns.
  double kblock_ns = 220.0;
  // A persistent CTA's second and later tiles cost about this much on top of their k-blocks
  // (measured: 33 tiles as 2 rounds of 22 clusters of 6 ran 1.45x slower than 1 round of 3). Fitted
  // to the forced paths of 4608x7168 and 9216x7168 (bench/results/2026-11-30-ee76064-paths.jsonl.gz):
  // with 1500 the model under-predicted every multi-round split by 2.5-5 us per extra round and
  // picked split 3 / 8 at 16.6 / 30.6 us where split 1 / 2 ran 14.8 / 27-30 us.
  double tile_ns = 5000.0;
};

constexpr int kSwapabTokenTiles[] = {8, 16, 32, 64, 128};
// Weight rows a decode CTA streams per tile. wgmma's M is always 64; a CTA may load fewer rows so
// that the weight divides evenly over every SM (2112 rows = 132 tiles of 16: one per SM, no split;
// 7168 = 128 tiles of 56 where 64-row tiles leave 20 SMs idle).
constexpr int kSwapabWeightRows[] = {16, 32, 40, 48, 56, 64};
// Tile heights that do not divide 128 give tiles whose rows cross a 128-row b_scale block: the kernel's
// kStraddle instances scale each accumulator row by its own block's b_scale. Those exist for two
// alternating warpgroups at token tiles up to 64 (not fused, not the owner's sum): 6 instances more,
// not 16.
constexpr bool swapab_rows_straddle(int weight_rows) { return weight_rows > 0 && 128 % weight_rows != 0; }
// Where the dispatcher takes them (dispatch.cpp, straddle_pays): token tiles up to this wide, K slices
// of at least this many k-blocks; and over 64-row tiles that tie in the cost model, where they fill
// 10 % more SMs in one round, slices of at least kSwapabStraddleFillMinSlice. Not at 64 tokens: there
// 56-row tiles took 1.04-1.14x the 64-row ones' time on the seven N = 6144 / 7168 weights where the
// fill rule would take them, even with the 64-token promotion's extra products gone (tokens on wgmma's
// M side; s23 call 6).
constexpr int kSwapabStraddleMaxTokenTile = 32;
constexpr int kSwapabStraddleMinSlice = 12;
constexpr int kSwapabStraddleFillMinSlice = 32;
constexpr int kMaxSplitK = 8;
// The dispatcher sends M above this to the tiled kernel; up to it, see tiled_wins.
constexpr int kSwapabMaxM = 512;
constexpr int kSwapabRowsPerTile = 64;  // wgmma's M: rows of the weight operand in shared memory
constexpr int kSwapabRedPitch = kSwapabRowsPerTile + 4;  // floats per token row of the reduction buffer
constexpr int kSwapabMaxStages = 48;
// Two math warpgroups take alternate stages of token tiles up to this wide; a wider tile they split
// by tokens (each takes every stage for its half), since two accumulators of the whole tile would not
// fit the registers of a 288-thread CTA. Either way each warpgroup holds at most 64 tokens and keeps
// its next wgmma in flight while it promotes.
constexpr int kSwapabMaxAlternatingTokenTile = 64;
constexpr int kSwapabDefaultWarpgroups = 2;
// The straddling instances (swapab_rows_straddle): two warpgroups taking alternate stages.
constexpr bool swapab_straddle_ok(int token_tile, int warpgroups) {
  return warpgroups == 2 && token_tile <= kSwapabMaxAlternatingTokenTile;
}
// Tokens one math warpgroup accumulates (the kernel's accumulator width too).
constexpr int swapab_wg_tokens(int token_tile, int warpgroups) {
  return warpgroups == 2 && token_tile > kSwapabMaxAlternatingTokenTile ? token_tile / 2 : token_tile;
}

constexpr int kSwapabMaxStageKBlocks = 16;
// Bytes of shared memory one pipeline stage of the decode kernel needs: `kblocks` k-blocks of the
// token tile and of the weight tile, each one TMA box.
int swapab_stage_bytes(int token_tile, int weight_rows, int kblocks);
// The k-block rank r of a split K starts at (rank = split_k: the end). Even shares (the pulled sum)
// with lead = 0; where rank 0 owns the split-K sum (the owner's sum, swapab_splitk.cu) it may take
// `lead` more k-blocks, which the other ranks give up in proportion. Host and device code.
constexpr int swapab_slice_begin(int kb_total, int split_k, int lead, int rank) {
  return rank * kb_total / split_k + (rank > 0 && rank < split_k ? lead * (split_k - rank) / (split_k - 1) : 0);
}
// K-blocks in the longest K slice of one CTA (with a lead, rank 0's).
constexpr int swapab_kb_slice(int kb_total, int split_k, int lead = 0) {
  const int even = (kb_total + split_k - 1) / split_k;
  const int first = kb_total / split_k + lead;
  return lead > 0 && first > even ? first : even;
}
// K-blocks of the decode kernel's a_scale box (scales by TMA, even shares): a box starts at a multiple of
// 4 k-blocks, since TMA faults with an illegal instruction where a box's first global address is not
// 16-byte aligned (s20 call 1), so it spans each rank's slice plus up to 3 k-blocks before it, rounded
// up to 16 bytes.
constexpr int swapab_scale_box_kb(int kb_total, int split_k) {
  int span = 0;
  for (int r = 0; r < split_k; ++r) {
    const int begin = swapab_slice_begin(kb_total, split_k, 0, r);
    const int end = swapab_slice_begin(kb_total, split_k, 0, r + 1);
    span = end - begin / 4 * 4 > span ? end - begin / 4 * 4 : span;
  }
  return (span + 3) / 4 * 4;
}
// Where that box lands, in floats from the start of the two reduction buffers (free until the first
// tile parks; their last 8 bytes are the box's barrier), else in the next tile's scale buffer (free until
// the first tile's math is done), 128-byte aligned; -1: in neither. 7168x18432 at split 1 (144 k-blocks)
// needs the second.
constexpr int swapab_scale_box_at(int token_tile, int kb_slice, int box_kb) {
  const int red = 2 * token_tile * kSwapabRedPitch, box = token_tile * box_kb;
  if (box <= red - 2) return 0;
  const int next = (red + kb_slice * (token_tile + 4) + 31) / 32 * 32;
  return next + box <= red + 2 * kb_slice * (token_tile + 4) ? next : -1;
}
// The owner's sum (the decode kernel, one tile a cluster): ranks 1..split-1 push their partial tiles
// into rank 0's two reduction buffers ([2][token_tile][kSwapabRedPitch] fp32), 4 bytes a (row, token)
// each; the last 8 bytes hold its inbox barrier.
constexpr bool swapab_owner_sum_fits(int split_k, int weight_rows) {
  return split_k >= 2 && (split_k - 1) * weight_rows <= 2 * kSwapabRedPitch - 8;
}
// The owner's sum serves token tiles up to this wide, on two warpgroups: at 32 tokens it measured
// 1.01-1.13x the pulled sum's time (s18 call 3), rank 0 taking every pushed byte and every store.
constexpr int kSwapabOwnerSumMaxTokenTile = 16;

// Two math warpgroups taking alternate stages (the decode kernel's kAlternate) own ring position
// p = lap * stages + slot by its parity, and each waits on a full barrier of its own per slot. Warpgroup
// w uses slot s on every lap of an even ring and on every other lap of an odd one, so the phase it
// awaits on its barrier of slot s at lap `lap` has the parity of bit 0 or bit 1 of the lap.
// (Unit test Dispatch.AlternatingRingParity walks the ring and counts each barrier's uses.)
constexpr int swapab_ring_warpgroup(uint32_t lap, int slot, int stages) {
  return int((lap * uint32_t(stages) + uint32_t(slot)) & 1u);
}
constexpr uint32_t swapab_alternate_wait_parity(uint32_t lap, int stages) { return (lap >> (stages & 1)) & 1u; }

// BLOCKFP8_FLAG_CONST_WEIGHTS lets the TMA decode kernel stream its first ring-full of weight before the
// preceding kernel ends; it takes the offer at token tiles up to 32. Against the default in one run
// (s21 call 3, 113 points): a geometric mean of 0.947x the time at 8 tokens (none above 1.01x), 0.971x
// at 16 and 0.986x at 32, but 1.028x at 64 (none below 0.99x, up to 1.09x).
constexpr int kSwapabConstWeightsMaxTokenTile = 32;
constexpr bool swapab_streams_weight_early(int flags, int token_tile) {
  return (flags & BLOCKFP8_FLAG_CONST_WEIGHTS) != 0 && token_tile <= kSwapabConstWeightsMaxTokenTile;
}
// Whether the owner's sum may serve cfg (a decode configuration with its defaults filled in) over
// kb_total k-blocks with this lead: a token tile it serves, ranks whose pushes fit rank 0's reduction
// buffers, every rank keeping a stage for each warpgroup (each adds its partial through its last
// one), and not BLOCKFP8_FLAG_BATCH_INVARIANT (whether a grid is one round depends on M). The launcher
// adds what needs the device: every cluster resident at once, so that each has one tile.
bool swapab_owner_sum_ok(const blockfp8_config_t& cfg, int kb_total, int lead);
// Token tiles from this wide load only the live rows of a lone token tile (tail boxes): TMA's zero fill
// of rows past M cost a 64-token tile up to 1.5x (s19 call 5); at 32 tokens tail boxes did not pay.
constexpr int kSwapabMinTailTokenTile = 64;
// Rows of the decode kernel's token boxes for m tokens: m where one token tile holds them all and a
// stage is one k-block (a 3-D box packs its k-blocks at its own row count, where the kernel expects
// token_tile), else token_tile.
constexpr int swapab_token_box_rows(int token_tile, int64_t m, int stage_kblocks) {
  return token_tile >= kSwapabMinTailTokenTile && m < token_tile && stage_kblocks == 1 ? int(m) : token_tile;
}
// Shared memory of the decode kernel's CTA: the stage ring, two reduction buffers, the scales of two
// tiles' K slices, the barriers, and the rows wgmma reads past a short weight tile.
int swapab_smem_bytes(int token_tile, int weight_rows, int kblocks, int stages, int kb_slice);
// Shared memory of the fused-A decode kernel: the decode kernel's with weight-only stages, plus the K
// slice's quantised tokens, resident for every tile.
int swapab_fused_smem_bytes(int token_tile, int weight_rows, int kblocks, int stages, int kb_slice);
// CTAs of a decode grid at one token tile: a CTA (or a cluster of `split`) for each strip of `rows`
// weight rows, whichever decode kernel runs it (the TMA kernel's persistent grid holds at most this).
constexpr int64_t strip_ctas(int64_t n, int rows, int split) { return (n + rows - 1) / rows * split; }
// The fused-A kernel's ring for a configuration the dispatcher chose for the two-launch path, or 0
// when it does not take it (more than one token tile, one warpgroup, no room for a ring, more groups
// of 128 than one pass of loads covers, or a GEMM grid of more CTAs than SMs: see below).
int swapab_fused_stages(const blockfp8_config_t& cfg, int64_t m, int64_t n, int64_t k, const DeviceInfo& dev);
// The fused 8-token kernel holds 133 registers a thread against the GEMM's 88 (docs/ptxas-report.txt):
// 288 threads of it fit one CTA an SM where the GEMM fits two. Where the GEMM's grid has more CTAs
// (tiles x split) than SMs, its one launch then runs half the resident CTAs: 1.01-1.13x two launches on
// such DeepSeek shapes (16384x512, 12288x1536, 24576x1536, 4608x7168, 6144/9216/18432/24576/36864x7168;
// s13 call 9, s14 call 8), the one exception 32768x512 (0.97-0.98x, which now runs the warp-MMA kernel
// at M <= 8), against 0.91-1.01x where the grid fits the SMs.
constexpr int kSwapabFusedMaxTokenTile = 32;
// The fused kernel quantises its K slice (M x kb_slice groups of 128) before its main loop, while the
// weight stream starts; beyond about 40 groups a CTA that costs more than the separate quantiser
// launch, which overlaps the GEMM's prologue since it calls launch_dependents
// (bench/results/logs/2026-11-29-fourth-session/bf16a_fused*.md, one launch / two: 2112x7168 M = 1 / 2 / 4
// (19 / 38 / 76 groups) 0.98 / 1.01 / 1.06; 576x7168 M = 1 / 4 / 8 (7 / 28 / 56) 0.89 / 0.94 / 1.00;
// 7168x2048 M = 1 / 2 / 4 (16 / 32 / 64) 0.95 / 0.99 / 1.01).
constexpr int kSwapabFusedMaxGroups = 40;
// blockfp8_gemm_bf16a's two launches: the quantiser goes out with programmatic dependent launch (its
// CTAs may be resident while the preceding kernel finishes; they wait for it with griddepcontrol.wait
// before touching X, X_q or the scales) at up to kBf16aQuantizerPdlMaxM tokens, its CTAs spread over
// the SMs (bf16a_quantizer_ctas_per_sm).
// - Unbounded, it lost on large weights and at M = 128-256 (up to 1.13x; s30 calls 6-8), while it won
//   0.90-0.99x at M = 2-64 on weights under 16 MiB. The timelines of s31 call 1 say why: launched early,
//   its CTAs fill the few SMs the preceding kernel leaves free to their occupancy (eight of 256 threads)
//   and wait there; at 2112x7168 M = 256 the GEMM's CTAs entered the other SMs at once, and the
//   quantiser ran 3.4 us from its wait to its last stores, against 2.2 us launched plainly.
// - Bounded to ceil(grid / SMs) CTAs an SM (s31 call 2, interleaved twice, against the plain launch):
//   0.90-1.00x at 23 of 24 points (six weights, 1.5-29 MB, M = 16-256), the exception 576x7168 at
//   M = 16 (1.05, as unbounded); unbounded lost up to 1.11x at the same points.
// - Small grids are left unbounded: at 14 CTAs (M = 16, K = 7168) bounded and unbounded were within
//   0.3 % at all six weights (call 2), and at 4-14 CTAs of 128 threads (M = 2-8) the bound cost
//   2112x7168 1.5-1.9 % (call 3): the CTAs, asking for 115 KB, no longer fit beside the preceding
//   kernel's. From 56 CTAs (M = 64) the bound won up to 0.90x of unbounded.
// The standalone blockfp8_quantize_1x128 does not know its consumer and keeps the plain launch.
constexpr int64_t kBf16aQuantizerPdlMaxM = 256;
constexpr bool bf16a_quantizer_pdl(int64_t m) { return m <= kBf16aQuantizerPdlMaxM; }
// The shared memory a CTA must ask for so that an SM of `dev` holds at most `ctas` of them.
inline int smem_for_ctas_per_sm(int ctas, const DeviceInfo& dev) {
  return dev.smem_per_sm / (ctas + 1) - dev.smem_reserved_per_cta + 1;
}
// How many CTAs of a `grid`-CTA quantiser launch an SM may hold so that the grid spreads over all of
// the device's SMs in one wave: ceil(grid / SMs); 0 (no bound) for a grid of at most a quarter of the
// SMs, or where the bound is no fewer than `occupancy` (what an SM holds anyway).
constexpr int bf16a_quantizer_ctas_per_sm(int64_t grid, int occupancy, int sm_count) {
  if (sm_count <= 0 || grid <= sm_count / 4) return 0;
  const int64_t c = (grid + sm_count - 1) / sm_count;
  return c < occupancy ? int(c) : 0;
}
// Up to this many tokens a math warpgroup keeps the next k-block's wgmma in flight while it promotes
// the previous one, so it holds two stages at a time.
constexpr int kSwapabMaxPipelinedTokenTile = 64;
// The shallowest ring that cannot deadlock: each math warpgroup may hold two stages while it waits
// for a third (split tokens: both hold the same two).
int swapab_min_stages(int token_tile, int warpgroups);
// Deepest pipeline that fits the device next to the rest of the CTA's shared memory.
int swapab_max_stages(int token_tile, int weight_rows, int kblocks, int kb_slice, const DeviceInfo& dev);
// The ring depth used when the caller leaves it to us: enough stages for a whole K slice and the
// start of the next tile's (more would never fill), within [min_stages, max_stages].
int swapab_default_stages(int token_tile, int weight_rows, int kblocks, int kb_slice, int warpgroups,
                          const DeviceInfo& dev);
// Decode CTAs one SM holds at once: registers (per instantiation) and shared memory.
int swapab_ctas_per_sm(int token_tile, int warpgroups, int smem_bytes, const DeviceInfo& dev);
// A ring shallower than this starves the TMA engine (bench/results: 7168x16384 at M = 128 on a
// 1-stage ring ran 1.8x slower than before); the dispatcher takes one only when nothing deeper runs.
constexpr int kSwapabUsefulStages = 4;
// The dispatcher's rings hold no more than this much weight in flight an SM where a CTA's whole stream
// (rounds of tiles x K slice) is at most kSwapabRingCapMaxStreamKBlocks k-blocks (weight_budget_stages,
// dispatch.cpp; the CTAs an SM unchanged). A ring that holds most of a short stream asks for it all at
// once; the timelines (s29 call 10) show the cost: on one CTA an SM the clusters launched late in the
// cascade wait behind the early ones' requests (the latest CTA's math ends 1.18 us after the median on
// 2112x7168 at M = 16, 0.86 on 6 stages), and on paired rings the first stage lands 0.4-1.2 us later.
// Interleaved (call 3): the 58 moved benchmark points 0.955-1.008x, geometric mean 0.983x. Measured (s29 calls 1-2:
// every TMA-kernel pick at M = 16, 32, 64 with 9 or more stages against the same configuration at about
// 0.5, 0.65 and 0.8 of its stages, three shuffled rounds): 16 tokens 0.95-0.99x (2112x7168 10 -> 6
// stages 0.970x, 4096x7168 0.969x, 4608x7168 on paired rings 0.963x, 6144x7168 0.950-0.969x, 7168x4096
// and 7168x4608 0.968-0.970x); 32 tokens 0.98-0.99x; 64-token rings are already within it. Streams of
// 128 k-blocks and more lost (7168x16384 1.005-1.015x, 7168x18432 1.016-1.028x): they need the depth.
constexpr int kSwapabRingWeightBytesPerSm = 96 * 1024;
constexpr int kSwapabRingCapMaxStreamKBlocks = 96;
// K-blocks per stage when the caller leaves it to us: weight boxes of about 8 KB (one k-block of a
// 64-row tile, four of a 16-row one: measured best), but two k-blocks (16 KB) for 64-row tiles with
// K slices of 16 k-blocks or more, where that ring still holds kSwapabDeepRingStages stages and the
// clusters of a split walk a single round of tiles (`split_rounds` false); fewer k-blocks where the
// ring would not hold `min_stages` of them.
constexpr int kSwapabLongSliceKBlocks = 16;
constexpr int kSwapabDeepRingStages = 6;
// 64-row 32-token tiles take one-k-block stages over slices longer than kSwapabLongSliceKBlocks up to
// this many k-blocks (measured there, s28 calls 6-7; swapab_default_stage_kblocks).
constexpr int kSwapabThinStageMaxSliceKBlocks = 28;
int swapab_default_stage_kblocks(int token_tile, int weight_rows, int warpgroups, int kb_slice, bool split_rounds,
                                 const DeviceInfo& dev);
// Paired rings. Up to kSwapabPairedMaxTokenTile tokens, where a configuration's tiles need several
// rounds at one CTA an SM, the dispatcher also weighs the same configuration on a ring small enough
// (at least kSwapabUsefulStages deep) that two CTAs share an SM: one round of twice the CTAs, or
// fewer rounds. Measured on the H200 with every ring capped that way (2026-11-30, seventh session,
// bench/results/logs/2026-11-30-s7-ab/call6): 4608x7168 M = 1-16 0.83-0.87x, 12288x7168 0.93-0.97x,
// 24576x1536 0.93-0.96x; but up to 1.55x at M >= 32 (where the 32-token kernel then ran one CTA an
// SM by registers, so its rings only got shallower) and 1.03-1.11x where one round already held every
// tile (2112x7168, 7168x2048), hence both limits. The dispatcher rule measured 0.74-1.02x (call7).
// 32-token tiles too, once that kernel ran two CTAs an SM (96 registers): 0.71-0.96x at M = 17-32 on
// 4608x7168, 9216x7168, 12288x7168, 36864x7168, 12288x1536 and 24576x1536; 1.01-1.015x on 3072x7168
// (s8 call 1, bench/results/logs/2026-11-30-s8-ab/call1).
constexpr int kSwapabPairedMaxTokenTile = 32;
// Paired rings where one round of full rings leaves a quarter of the SMs idle (the seventh session's
// rule), only where those full rings' K slices are this long. Full rings against paired ones at such
// points (s29 calls 4-6, three shuffled rounds): 14- and 28-k-block slices were faster on full rings
// (1536x7168 split 4 at M = 24-32 0.938x split 8; 3072x7168 split 2 at M = 16-32 0.90-0.98x; 6144x1536
// unsplit at M = 24 0.985x), 56-k-block ones on paired rings (6144x7168 unsplit 1.02-1.06x at M = 8-32).
constexpr int kSwapabPairedFewCtasMinSlice = 32;
// The paired ring of a configuration, or 0 where two CTAs cannot share an SM on a useful ring.
int swapab_paired_stages(int token_tile, int weight_rows, int kblocks, int kb_slice, int warpgroups,
                         const DeviceInfo& dev);
// Whether the clusters of a split configuration walk more than one round of tiles (counting one CTA
// an SM: the footprint of the long K slices where the stage size is chosen).
bool swapab_split_rounds(int64_t m, int64_t n, int token_tile, int weight_rows, int split, const DeviceInfo& dev);

// The dispatcher's cost of a decode configuration, in (roughly) nanoseconds: the busiest SM's
// bytes at the rate one SM streams, or the whole weight at HBM speed, whichever is longer, plus the
// cluster reduction. Exposed so the unit tests and the benchmark can show the ranking. stages: the
// ring (0: the default one), which decides how many CTAs share an SM.
double swapab_cost_ns(int64_t m, int64_t n, int64_t k, int token_tile, int weight_rows, int split_k,
                      const DeviceInfo& dev, int stages = 0);

// Whether the tiled kernel takes (m, n, k) rather than the decode kernel: every M above kSwapabMaxM;
// above one token tile, where the decode tiles would fill more than half the SMs; at M <= 128, wide
// weights at M > 64 or M > 32 with short K (measured rules; see dispatch.cpp).
bool tiled_wins(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev);
// At 64 < M <= 128, the decode kernel with two 64-token tiles of 64 weight rows, split K over a cluster,
// where those CTAs fill every SM in one round: the split, else 0. 2112x7168 (33 x 2 x 2 = 132 CTAs)
// at M = 128, forced in three shuffled rounds (s24 call 7): 11.71 us against the tiled kernel's 13.59
// (0.86x), the 128-token tile's 14.7. Short of a round it lost (1536x7168, 96 CTAs: 1.02x at M = 128;
// 3072x7168, 4096x7168 and 4608x7168 at 1.14-1.57x), hence the exact fill. (At M = 96 it took 13.88:
// the second tile's boxes then reached past M, which tile_origin in swapab_splitk.cu now avoids.)
int swapab_two_tile_split(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev);
// At one token tile above 64 tokens, the tiled kernel also takes weights of at least this many
// 128-row tiles with K at least this long, where it splits K (tiled_wins).
constexpr int64_t kTiledSplitMinWeightTiles = 12;
constexpr int64_t kTiledSplitMinK = 4096;
// Short K at one token tile (tiled_wins): there the decode kernels walk several rounds of short tiles,
// each paying its start and its split-K sum, where the tiled kernel runs one or two rounds of whole-K
// tiles and loads no token rows past M. Where the tiled kernel takes the call, by token count (forced
// and interleaved, s25 calls 3-5, 9-10):
//   1-4 tokens     more 128-row weight tiles than SMs, K <= kTiledFewestTokensMaxKBlocks k-blocks
//   5-32 tokens    more tiles than SMs, K <= kTiledFewTokensMaxKBlocks; and from 17 tokens
//                  kTiledShortKMinWeightTiles+ tiles, K <= kTiledShortestKMaxKBlocks (s26 call 1)
//   33-64 tokens   kTiledShortKMinWeightTiles+ tiles, K <= kTiledShortKMaxKBlocks (and any K from
//                  half the SMs' worth of tiles, and where the decode pick takes two rounds; s26)
//   65-128 tokens  kTiledMidShortKMinWeightTiles+ tiles, K <= kTiledMidShortKMaxKBlocks (and the wide
//                  and split-K rules above)
constexpr int64_t kTiledFewestTokensMaxKBlocks = 4;
constexpr int64_t kTiledFewTokensMaxKBlocks = 24;
constexpr int64_t kTiledShortKMinWeightTiles = 32;
constexpr int64_t kTiledShortKMaxKBlocks = 8;
constexpr int64_t kTiledShortestKMaxKBlocks = 2;
constexpr int64_t kTiledMidShortKMinWeightTiles = 24;
constexpr int64_t kTiledMidShortKMaxKBlocks = 12;

// The warp-MMA decode kernel (kernels/swapab_warpmma.cu): a CTA of 4 x warpgroups warps owns a strip
// of weight_rows rows x a token tile over its K slice; each thread keeps stage_kblocks k-blocks of its
// share in flight through its own cp.async ring. Its instantiations: (token tile, weight rows, ring).
#define BLOCKFP8_WARPMMA_CONFIGS(X) \
  X(8, 16, 2) X(8, 16, 4) X(8, 16, 8) X(8, 32, 2) X(8, 32, 4) X(16, 16, 4) X(16, 32, 4) X(32, 16, 2) X(32, 32, 2)
constexpr int kWarpMmaMaxWarps = 16;
// 32-token tiles hold four accumulator sets and spill at 16 warps' 128 registers a thread.
constexpr int warpmma_max_warps(int token_tile) { return token_tile >= 32 ? 8 : kWarpMmaMaxWarps; }
constexpr int kWarpMmaDefaultWarpgroups = 2;
// One ring slot: per lane, 16-byte chunks of weight_rows / 8 weight rows and token_tile / 4 tokens'
// (two each of a fragment's rows), and 1 + token_tile / 4 scales; fused (tokens resident instead):
// the weight rows and the b_scale.
constexpr int warpmma_slot_bytes(int token_tile, int weight_rows, bool fused = false) {
  return fused ? (weight_rows / 4) * 512 + 128 : (weight_rows / 4 + token_tile / 4) * 512 + (1 + token_tile / 4) * 128;
}
// Shared memory of a CTA: the warps' rings, which the reduction reuses afterwards; fused_kb_slice > 0
// (the fused A side): plus the token tile's quantised K slice (rows padded by 16 bytes) and scales.
constexpr int warpmma_smem_bytes(int token_tile, int weight_rows, int ring, int warps, int fused_kb_slice = 0) {
  const int rings = warps * ring * warpmma_slot_bytes(token_tile, weight_rows, fused_kb_slice > 0) +
                    (fused_kb_slice > 0 ? token_tile * (fused_kb_slice * 128 + 16 + fused_kb_slice * 4) : 0);
  const int red = (warps + 1) * weight_rows * token_tile * 4;
  return rings > red ? rings : red;
}
// The warp-MMA kernel's walk over a K slice of kb_count k-blocks: warp w of `warps` takes the slice's
// k-blocks w, w + warps, ... (warpmma_warp_kblocks of them), and with a staggered start `rot` its i-th
// is (w + i warps + rot) mod kb_count, so every k-block is still taken exactly once. Strip s of
// `strips` starts s / strips of the way in: the CTAs do not all ask for the same k-block at once
// (s12 calls 1-2: 0.955-0.995x on long K). Used by the kernel; tested on the CPU.
constexpr int warpmma_warp_kblocks(int warp, int warps, int kb_count) {
  return warp < kb_count ? (kb_count - warp + warps - 1) / warps : 0;
}
constexpr int warpmma_walk_start(int64_t strip, int64_t strips, int kb_count) {
  return int(strip * kb_count / strips);
}
constexpr int warpmma_walk_kblock(int warp, int warps, int i, int rot, int kb_count) {
  const int l = warp + i * warps + rot;  // < 2 kb_count: one wrap at most
  return l < kb_count ? l : l - kb_count;
}
// The fused A side (blockfp8_gemm_bf16a in one launch) of the configurations the dispatcher picks.
#define BLOCKFP8_WARPMMA_FUSED_CONFIGS(X) X(8, 16, 4) X(8, 16, 2) X(8, 32, 2)
// Each thread of the fused kernel loads this many 16-byte pieces of X, all before the weight copies:
// a CTA of w warps quantises at most 2 w x kWarpMmaFusedLoads groups of 128 (M x K slice k-blocks).
// Eight (M = 2 at K = 7168 in one launch) measured 0.99-1.13x two launches there, and 1.07x at
// 3072x1536 M = 8 (s11 call 10): every CTA reads the same X rows, so the prologue grows with M.
constexpr int kWarpMmaFusedLoads = 4;
// Whether blockfp8_gemm_bf16a runs `cfg` (blockfp8_gemm's choice) as one warp-MMA launch that
// quantises its tokens itself: one token tile, an instantiated fused kernel, a slice of tokens one
// pass of loads covers, no more than one such pass an SM over the whole grid, and room for it.
bool warpmma_fused_ok(const blockfp8_config_t& cfg, int64_t m, int64_t n, int64_t k, const DeviceInfo& dev);
// Whether (token tile, weight rows, ring) is instantiated.
bool warpmma_instantiated(int token_tile, int weight_rows, int kblocks);
// The deepest instantiated ring for (token tile, weight rows): the default stage_kblocks.
int warpmma_default_kblocks(int token_tile, int weight_rows);

// The warp-MMA kernel at one 8-token tile (M <= kWarpMmaMaxM); kernel == 0 where it does not apply.
// Three cases, each measured against the TMA decode kernel (cold):
// - One round: strips of 32 (else 16) rows fill two thirds of the SMs to all of them, one CTA an SM
//   (s11 call 2, M = 1 / 8: 2112x7168 0.81 / 0.98x, 4096x7168 0.89 / 0.99x, 3072x1536 0.78 / 0.85x,
//   4096x512 0.66 / 0.69x, 1536x7168 0.85 / 1.05x); 16-row strips on under three quarters of them only up
//   to kWarpMmaThinPartialRoundMaxM tokens.
// - Too few strips of 16 (576x7168: 36): K split over clusters of up to kWarpMmaMaxSplit, the largest
//   split that keeps one round (s14 call 4: split 3, 0.86-0.96x at M = 1-8).
// - More than 1.25 rounds of strips of 32, at M <= kWarpMmaManyStripsMaxM (M <= 8 where K <=
//   kWarpMmaManyStripsShortK): one CTA a strip, several an SM (s14 call 4: 0.70-0.97x at M = 1-4 on 24
//   DeepSeek shapes; two measured exceptions by name in dispatch.cpp). Just over one round it loses
//   (4608x7168, 144 strips: 1.07-1.10x).
constexpr int kWarpMmaMaxM = 8;
// Beyond one round of strips the warp-MMA kernel wins only at the fewest tokens (s14 call 3: at M = 8
// 0.79-1.05x, at M = 16 and 32 1.00-3.4x the TMA kernel on the same shapes).
constexpr int kWarpMmaManyStripsMaxM = 4;
// ... and up to kWarpMmaMaxM where K is this short (s14 call 6: 0.78-0.99x at M = 5-8 on the seven
// such DeepSeek shapes; at K >= 2048, M = 8 measured 0.96-1.05x in call 3).
constexpr int64_t kWarpMmaManyStripsShortK = 1536;
// The largest K split over a cluster the few-strip rule takes (measured up to 4).
constexpr int kWarpMmaMaxSplit = 4;
// From this many tokens the 16-row strips run a ring of 2 k-blocks, not 4 (choose_warpmma_config).
constexpr int kWarpMmaShortRingM = 7;
// One round of 16-row strips on under three quarters of the SMs serves at most this many tokens; from
// there each strip's token re-reads (M rows a 16-row strip) cost more than the TMA kernel's split. Forced
// against it (s29 call 12, three shuffled rounds; the TMA kernel on its 96 KB rings): 1536x7168 (96 strips)
// TMA 0.958 / 0.942 / 0.938x at M = 6 / 7 / 8, warp MMA at 4 (TMA 1.042x); with every SM a strip
// (2112x7168, 132) warp MMA at M = 5-7 (TMA 1.008-1.045x), 0.983x at 8 (s11 call 2 had 1536x7168 at
// 1.05x at M = 8 already).
constexpr int kWarpMmaThinPartialRoundMaxM = 5;
blockfp8_config_t choose_warpmma_config(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev);
// The TMA decode kernel's configuration (the cost model over splits and tile heights).
blockfp8_config_t choose_swapab_config(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev);

// The dispatcher's choice, assuming TMA-compatible pointers: a measured pick where the table has one
// (and check_config takes it), else the rules.
blockfp8_config_t choose_config(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev);

// measured_picks.cpp: configurations measured faster than the rules' pick over an M range of one shape,
// on the GPU the table was measured on. measured_pick: the one for (m, n, k) on dev, or false.
struct MeasuredPick {
  int64_t n, k, m_first, m_last;
  blockfp8_config_t cfg;
};
bool measured_pick(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev, blockfp8_config_t* cfg);
const MeasuredPick* measured_picks(int* count);  // the whole table (tests, tools)

// BLOCKFP8_FLAG_BATCH_INVARIANT: one decode configuration for every M, so a token's reduction order
// (its k-blocks per warpgroup, the warpgroup sum, the cluster's rank order) never depends on M.
blockfp8_config_t choose_batch_invariant_config(int64_t n, int64_t k, const DeviceInfo& dev);
constexpr int kBatchInvariantTokenTile = 32;

// Whether a (possibly forced) configuration can run (m, n, k) on dev. Fills in stages == 0.
blockfp8_status_t check_config(blockfp8_config_t& cfg, int64_t m, int64_t n, int64_t k, const DeviceInfo& dev);

// What blockfp8_gemm runs on TMA-compatible operands: the dispatcher's choice (choose_config, or
// choose_batch_invariant_config when `invariant`) with its defaults filled in where check_config
// accepts it, else the SIMT kernel. (api.cpp caches it per shape; the tools print it over grids.)
blockfp8_config_t planned_config(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev, bool invariant = false);

}  // namespace blockfp8::detail
