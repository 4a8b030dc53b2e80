// The rules of the tiled (prefill) kernel: which weight-row tiles it has, how much shared memory a
// configuration needs, whether a forced configuration can run, and the choice for (M, N, K).
// Host-only and free of CUDA calls, like dispatch.h (tests/unit/test_dispatch_tiled.cpp).
#pragma once

#include <cstdint>

#include "blockfp8/blockfp8.h"
#include "dispatch.h"
#include "problem.h"

namespace blockfp8::detail {

constexpr int kTiledTokenTile = 128;  // tokens per tile: two math warpgroups of 64 (wgmma M)
// The wide token tile: each math warpgroup runs two 64-token wgmmas a k-block against one weight
// tile, so the tile moves (256 + weight_rows) x 128 bytes into shared memory for 256 x weight_rows
// outputs: at 128 rows 11.7 bytes per thousand multiply-adds, against 13.0 for 128 x 192. Its
// accumulators are two running sums and one partial of weight_rows / 2 each, so it stops at
// kTiledWideMaxWeightRows; it does not split K.
constexpr int kTiledWideTokenTile = 256;
constexpr int kTiledWideMinWeightRows = 96;  // narrower tiles move more bytes a flop than 128 x 192
constexpr int kTiledWideMaxWeightRows = 128;
// What the dispatcher weighs a 256 x 128 tile at: 0.9375 x two 128 x 128 tiles (390 rows of cost
// against 416), fitted to the wide tiles forced against 128 x 192 at M = 1024-8192 on eight DeepSeek
// weights (s35 call 2, three shuffled rounds). It considers only 128 rows (at M >= 1024, 112 rows took
// 1.10-1.82x the 128-row wide tile's time there, 96 rows 0.94-1.53x), only from kTiledWideMinTokens,
// and only from kTiledWideMinK: the picks it made took 1.02-1.11x the 128-token tiles' time on K =
// 256-512 at M = 1024-8192 (7168x256, 7168x512, 4096x512; s35 call 3) and, on main's build, 1.07x and
// 1.11x on 7168x1024 at M = 1024 and 8192 (s36 call 2, interleaved), where each tile's fixed costs (the
// fill of 48 KB stages, the 64 KB epilogue) weigh on a loop of a few k-blocks.
constexpr double kTiledWideTileFactor = 0.9375;
constexpr int64_t kTiledWideMinTokens = 512;
constexpr int64_t kTiledWideMinK = 2048;
// One round of wide tiles against more than one of 128-token tiles: the partial second round costs
// a full one there, not the average kAverageRoundsWeight grants it over many rounds. Forced at
// M = 512 on the N = 7168 weights (s36 call 1, three shuffled rounds, against the 128 x 128 pairs
// picked): 0.84-0.97x with K = 2048-16384 (7168x16384 0.84, 7168x4608 0.86). From
// kTiledWideOneRoundMinTokens, where 128-token tiles are four to a column (and wide ones two). Against
// its switch (s36 call 3, interleaved, twice each way): 0.861-1.002x at the 24 points it moves at
// M = 400-512 on 7168 x 2048-18432 (geometric mean 0.904), 0.945x on 4608 x 7168 at M = 768.
constexpr int64_t kTiledWideOneRoundMinTokens = 3 * kTiledTokenTile + 1;
// Whether choose_tiled_config weighs the wide tile by default: yes, unless BLOCKFP8_TILED_WIDE=0 (read
// once; the switch is for A/B runs). Main's build measured with and without it (s36 call 2, twice each
// way, interleaved): the 28 points it moves at M = 1024-8192 on K >= 2048 took 0.902-1.019x (geometric
// mean 0.968); in the whole benchmark (s36 call 3) the 36 moved points 0.956x relative to cuBLASLt.
bool tiled_wide_dispatch_enabled();
constexpr int kTiledWarpgroups = 2;
// Weight rows per tile (wgmma N). Each math thread holds two fp32 sets of weight_rows / 2
// accumulators (the running sum and the k-block's partial), so 192 is the widest that fits the 224
// registers a math thread gets. weight_rows / 2 must be a multiple of 8: a cluster pair's producers
// each multicast half of the weight tile, and that half must start on a 1024-byte swizzle atom.
// Every width below is a multiple of 16.
constexpr int kTiledWeightRows[] = {64, 80, 96, 112, 128, 144, 160, 176, 192};
constexpr int kTiledMaxWeightRows = 192;
constexpr int kTiledMinStages = 2;
constexpr int kTiledMaxStages = 8;
// Tiles walk M fastest inside groups of this many 128-token rows, so the CTAs of one wave share
// a few weight tiles and a few activation tiles in L2.
constexpr int kTiledGroupM = 8;

// One pipeline stage: the 128-token A tile and the weight tile (128 bytes of K each), then the
// stage's scales (128 a_scales, 4 b_scale slots), then its full and empty mbarriers.
int tiled_stage_bytes(int weight_rows, int token_tile = kTiledTokenTile);
// A stage's scales: token_tile a_scales, then 4 b_scale slots, padded to 128 bytes (the TMA engine
// lands column-major a_scales there).
constexpr int tiled_scale_bytes(int token_tile) { return ((token_tile + 4) * 4 + 127) / 128 * 128; }
constexpr int kTiledScaleBytes = tiled_scale_bytes(kTiledTokenTile);
// How a stage's scales reach the ring (tiled_scale_route). kScalesCopied: the scale warp's four-byte
// cp.async copies, any strides. kScalesTmaA: column-major a_scales by TMA with the operands, one 512-byte
// request a k-block (the b_scales copied). kScalesRows: row-major a_ and b_scales with 16-byte rows, four
// k-blocks a 16-byte load (produce_scales_rows; not in the split-K kernel).
enum TiledScaleRoute : int { kScalesCopied = 0, kScalesTmaA = 1, kScalesRows = 2 };
// The column stride of TMA-aligned column-major a_scales: M rounded up to 4 (16-byte columns), the
// layout blockfp8_gemm_bf16a's workspace and DeepGEMM use.
constexpr int64_t tiled_aligned_scale_ld(int64_t m) { return (m + 3) / 4 * 4; }
// The column stride the kScalesTmaA tensor map walks: p's a_scale_stride_k, or with one k-block (no
// stride to speak of) tiled_aligned_scale_ld(M).
inline int64_t tiled_scale_map_ld(const Problem& p) {
  return p.k_blocks() == 1 ? tiled_aligned_scale_ld(p.m) : p.a_scale_stride_k;
}
// The route p's scales take in the tiled kernel (split: the split-K kernel): kScalesTmaA, where tma allows
// it, for column-major a_scales whose base and column stride are 16-byte aligned; else kScalesRows for
// row-major a_ and b_scales with 16-byte aligned bases and rows and K/128 a multiple of 4, unsplit;
// else kScalesCopied. (The launcher falls back with tma = false where the tensor map does not encode.)
TiledScaleRoute tiled_scale_route(const Problem& p, bool split, bool tma = true);

// The bf16 / fp16 output tile staged for the TMA store: token_tile x weight_rows x 2 bytes.
int tiled_out_bytes(int weight_rows, int token_tile = kTiledTokenTile);
// The whole CTA: 1024 bytes of alignment slack, the ring, the scales, the barriers, the output tile.
int tiled_smem_bytes(int weight_rows, int stages, int token_tile = kTiledTokenTile);
// Deepest ring that fits the device (0 if none does).
int tiled_max_stages(int weight_rows, const DeviceInfo& dev, int token_tile = kTiledTokenTile);
bool tiled_weight_rows_supported(int weight_rows, int token_tile = kTiledTokenTile);

// A cluster of the tiled kernel: cta_m CTAs on neighbouring token tiles of one weight tile, or cta_n
// on neighbouring weight tiles of one token tile, or both (2 x 2, 2 x 4: each operand multicast to the
// CTAs that share it). A cluster walks units of
// cta_m x cta_n tiles; where the grid's tiles do not divide into units, the last units hold CTAs past
// M or N, which load their share of the shared operand and store nothing.
struct TiledCluster {
  int cta_m = 1, cta_n = 1;
  int ctas() const { return cta_m * cta_n; }
};
// The shapes the kernel has: 1x1, 2x1, 1x2 and 1x4, and the 2-D 2x2 and 2x4 at 128- and 256-token tiles of
// kTiled2dClusterRows rows, unsplit (check_tiled_config; the device must hold such clusters).
constexpr int kTiled2dClusterRows = 128;
// The dispatcher takes 2 x 4 clusters in place of its pick's unsplit 2 x 1 pairs of kTiled2dClusterRows-row
// tiles, with N a whole number of four-tile columns, where the pairs are bound by what L2 delivers into the
// SMs: the 2 x 1 pairs of 128 x 128 tiles pull 24 KB of operands from L2 a CTA and k-block at 6.4-6.7 TB/s
// whether 112 or 132 CTAs run (s37 calls 2-3, stream-K), 2 x 4 clusters 12 KB.
// - Over 128-token tiles where two run (M = kTiled2dMinTokens..256) in one round of clusters of 8. Forced at
//   M = 256 on the ten N = 7168 weights, 0.909-0.998x the pairs' time (2 x 2: 0.938-0.996x); at M = 192
//   0.938-1.018x (s37 call 4). Against the switch 0.918-0.978x at M = 256 (s37 call 5); at M = 136-192 on the
//   eleven N = 7168 weights 0.862-1.013x, geometric mean 0.973, 7168x1024 and 7168x2048 the only losses
//   (1.001-1.013x; s38 calls 3-4). Forced at M = 160 and 176 in a fresh process: 0.96-0.985x on K >= 8192.
// - Over 256-token tiles up to kTiled2dWideMaxTokens, where the clusters of 8 take no more rounds than the
//   pairs. Against the switch on the N = 7168 weights with K >= 2048 (s38 call 1, twice each way): 0.926-0.993x
//   at M = 448-512 (geometric means 0.964 and 0.950), 0.905-1.018x at M = 1024 (0.941); at M = 4096 it lost
//   (1.002-1.066x, 1.024). Forced (three rounds): 2 x 4 0.86-0.98x the pairs at M = 512, 0.92-0.95x at 1024.
// BLOCKFP8_TILED_2D=0 turns both off (a diagnostic switch, for A/B).
constexpr int64_t kTiled2dMinTokens = 129;  // two token tiles
constexpr int64_t kTiled2dWideMaxTokens = 1024;
bool tiled_2d_dispatch_enabled();
bool tiled_cluster_supported(TiledCluster c, const DeviceInfo& dev);
// How many units of c the busiest cluster runs (persistent clusters, as many as the device holds).
int64_t tiled_rounds(int64_t m, int64_t n, int weight_rows, TiledCluster c, const DeviceInfo& dev,
                     int token_tile = kTiledTokenTile);

// Relative time of the whole problem with weight_rows-wide tiles in clusters c on dev: rounds of
// units (the busiest cluster's, tiled_rounds; over several rounds averaged half and half with the
// mean, since the GPU then runs at its power limit), each costing its width plus a fixed share (the A
// tile it loads, pipeline fill, epilogue), 176-row tiles 8 % more over several rounds, times what
// sharing the token tile measured where there is one. Exposed for tests and the benchmark.
// Tiles of token_tile = kTiledWideTokenTile cost kTiledWideTileFactor x two 128-token tiles of their width.
double tiled_cost(int64_t m, int64_t n, int weight_rows, TiledCluster c, const DeviceInfo& dev,
                  int token_tile = kTiledTokenTile);
// The same with the cluster the dispatcher would pick for that width.
double tiled_cost(int64_t m, int64_t n, int weight_rows, const DeviceInfo& dev, int token_tile = kTiledTokenTile);
// A tile of weight_rows rows starts at a multiple of weight_rows, so its offset in a 128-row b_scale
// block is a multiple of gcd(weight_rows, 128): the step of the column where its second block begins.
constexpr int tiled_scale_step(int weight_rows) {
  const int low_bit = weight_rows & -weight_rows;
  return low_bit < 128 ? low_bit : 128;
}
// The most 128-row b_scale blocks such a tile touches: 3 for 176, 2 for every other supported width.
constexpr int tiled_scale_blocks(int weight_rows) {
  return weight_rows - tiled_scale_step(weight_rows) > 128 ? 3 : 2;
}
static_assert(tiled_scale_blocks(176) == 3 && tiled_scale_blocks(192) == 2 && tiled_scale_blocks(160) == 2 &&
              tiled_scale_blocks(144) == 2 && tiled_scale_blocks(128) == 2, "b_scale blocks a tile touches");

// Split-K: split_k CTAs of a cluster share one tile along K and sum it through distributed shared
// memory in rank order (deterministic), for grids with too few tiles to fill the device. A unit is
// one tile; every cluster of the grid must be resident at once, and the ring must hold the tile's
// fp32 partial ([128][weight_rows + kTiledPartialPad]) once the mainloop is done.
constexpr int kTiledMaxSplitK = 8;
// The dispatcher splits K only above this many tokens (a forced split runs at any M). From 33 tokens since
// the loop's descriptors moved to uniform registers (s26 calls 3-4, three shuffled rounds, split / the
// unsplit pick at M = 33-64): 9216x7168 0.91-0.95, 12288x7168 0.94-1.00; 4608x7168 0.83 against decode.
constexpr int kTiledSplitMinTokens = 32;
// Beyond two token tiles the dispatcher splits K at most this far. The splits of 5-8 that fit there
// (weights of at most about 1400 rows: the H200 holds 22 clusters of 5, 15 of 8; of the DeepSeek shapes,
// 576x7168) are of wide tiles, and lost to splits of 4 of narrower ones on 576x7168 (s33 call 1, three
// shuffled rounds, time over the best split timed): 128 rows split 8 1.05-1.06 at M = 288-352 (64 rows
// split 4 best), 192 rows split 8 1.10-1.12 at M = 416-512 and 1.11 at 640 (96 rows split 4 best). At
// two token tiles 96 rows split 8 took 1.01-1.02.
constexpr int kTiledMaxSplitManyTokenTiles = 4;
constexpr int kTiledPartialPad = 4;
int tiled_partial_bytes(int weight_rows);
bool tiled_split_fits(int64_t m, int64_t n, int64_t k, int weight_rows, int split, int stages, const DeviceInfo& dev);
// Relative time of a split (same units as tiled_cost: one round of full tiles is weight_rows + F);
// -1 where it does not fit.
double tiled_split_cost(int64_t m, int64_t n, int64_t k, int weight_rows, int split, const DeviceInfo& dev);

// Validates a (possibly forced) TILED configuration and fills its defaults: 0 in token_tile,
// split_k, warpgroups, weight_rows, stages, cluster_m or cluster_n means "the default"; anything else
// must be what the kernel runs (token_tile 128 or 256, warpgroups 2, a supported weight_rows for the
// token tile, a ring that fits, a supported cluster, and split_k 1, or, at 128 tokens,
// 2..kTiledMaxSplitK with no multicast cluster where tiled_split_fits). Token tile and width both 0
// (and split_k and the cluster not forced) take the dispatcher's choice of both; a forced token tile
// of 128 takes the best 128-token width, 256 the widest it has. A forced weight_rows with the cluster
// left to the default takes the cluster that is best for that width.
blockfp8_status_t check_tiled_config(blockfp8_config_t& cfg, int64_t m, int64_t n, int64_t k, const DeviceInfo& dev);

// The best TILED configuration for (m, n, k): the weight_rows and cluster that minimise tiled_cost
// (never padding N up to a multiple of 128), or a split of K where tiled_split_cost wins by
// kSplitMargin, or (allow_wide, K >= kTiledWideMinK) 256-token tiles of 128 rows where their cost is
// lower still (M >= kTiledWideMinTokens) or where they take one round and the 128-token pick more
// (M >= kTiledWideOneRoundMinTokens), and the deepest ring that fits.
blockfp8_config_t choose_tiled_config(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev, bool allow_split = true,
                                      bool allow_wide = tiled_wide_dispatch_enabled());

}  // namespace blockfp8::detail
