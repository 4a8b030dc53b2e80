#include "dispatch_tiled.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "env.h"

namespace blockfp8::detail {

namespace {

constexpr int kAlignSlack = 1024;  // the ring is aligned up to 1024 bytes (128-byte swizzle atoms)
constexpr int kBarrierBytes = 16;  // full + empty mbarrier of one stage
// A tile's fixed cost in units of weight rows: loading its 128-token A tile every k-block, the
// pipeline fill and the epilogue do not shrink with the tile's width. Refitted on every width at
// 31 shapes, M = 128-4096 (s9 call 6, tools/tiled_sweep_report.py --fit): with 80 the pick is within
// 5 % of the best width at 192 of 217 points; with 48 (the 2026-11-29 fit on one shape) and a 1.18x
// penalty on 176-row tiles, at 180.
// It is about what shared memory says: per k-block a tile moves 16 KB of A and BN x 128 B of B into
// shared memory, and the two math warpgroups read A once and B twice, 128 x (256 + 3 BN) bytes at a
// fixed bandwidth, or BN + 85 rows' worth.
// (176-row tiles: see kThreeScaleBlocksFactor. On the ninth session's unsettled sweep any factor
// for them made the picks worse; settled, at M >= 1024, they need one.)
constexpr double kTileFixedRows = 80.0;
// With one token tile, every CTA of a wave loads the same A tile each k-block; pairs along N each
// multicast half of it to both: 0.61-0.96x the time of single CTAs at M = 65-128 (s8 call 1).
constexpr double kOneTokenTileAlongNFactor = 0.90;
// Pairs along M, each multicasting half of the weight tile to both, against single CTAs of the same
// width in separate processes (interleaved A/B, s9 call 7): 0.94-0.99x at M = 512 on 5 of 6 shapes,
// 0.75-0.96x at M = 1024 on 5 of 6, about even at M = 4096-8192 (0.94-1.03x). (Inside one process,
// back to back, the two measured even: s9 call 5.) At an odd number of token tiles the last pair of
// every weight tile holds a CTA past M, which the rounds count.
constexpr double kPairAlongMFactor = 0.95;
// Over several rounds the GPU runs at its power limit (a median 686 W, s15 call 2), so the time follows
// the grid's total work as much as the busiest cluster's count of units: a last round that only some
// clusters run goes faster than a full one. The rounds a cost counts are the busiest cluster's and the
// average, weighted half and half. And 176-row tiles, whose columns fall in three 128-row b_scale
// blocks, run 8 % slower per row than two-block widths once they take several rounds (one round
// measured no such loss: s9 call 6 at M = 384). Fitted to settled sweeps of every width 128-192,
// single CTAs and pairs along M, at M = 1024-8192 on 19 shapes (s15 calls 3-4, bench/results/logs/
// 2026-11-30-s15): the old cost (busiest rounds only, no 176 factor) picked 176 rows at M >= 2048
// on the N = 7168 weights, 2112x7168, 4096x7168 and 4096/8192/16384x512, 1.03-1.10x the best
// width's time at 25 of 75 points; this one is within 5 % at every point (geometric mean 1.002).
// On the ninth session's unsettled sweep at M <= 1024 it picks as the old cost did (20 of 155 points
// over 5 % either way).
constexpr double kAverageRoundsWeight = 0.5;
// A tile whose rows can fall in two 128-row b_scale blocks (every width but 64 and 128) costs this many
// rows more: its promotion picks each column's scale from two, through one of 128 / step compiled
// paths a k-block (promote_split in the kernel). Fitted (s18): on the forced sweeps at M <= 512 (s9
// call 6, widths on single CTAs) 128-row tiles beat the 96-112 rows the old cost picked by 3-10 % at
// 17 points, and 16-17 rows moves those picks to 128 (points over 5 % from the best width: 21 -> 11
// of 217) without changing any pick of the settled sweeps at M >= 1024 (s15 calls 3-4; from 18 rows
// it turns 4096xK at M >= 2048 to 128-row tiles, 1.07x slower). On N = 7168 at M = 256-512 (s18 call
// 10, pairs along M) 128 rows took 0.86-0.98x the 112 rows' time at 7 of 8 points. Interleaved against
// the old picks (s18 call 11): the 46 points it changes at M = 96-512 took 0.958x (geometric mean;
// 0.894-1.067, the loss 7168x8192 at M = 96, where 64-row tiles replace a split of 112).
constexpr double kStraddleRows = 17.0;
constexpr double kThreeScaleBlocksFactor = 1.08;
// Split-K (a cluster of CTAs on one tile, each a share of K, summed through distributed shared
// memory): what parking, the cluster barriers and the remote sum cost, in k-blocks of the tile's
// mainloop, and the margin a split must win by. First set from the decode kernel's split-K sum
// (about 1.5 us against 3.8 us of streaming at 2112 x 7168 M = 1), then measured (s10 call 2, forced,
// shuffled rounds, K = 7168): splits took 0.65-0.81x the best unsplit width on 1536 x 7168 at
// M = 256-512, 0.74x on 2112 x 7168 at M = 256-384, 0.90-0.96x on 3072, 4096 and 4608 x 7168 at
// M = 256-384; the dispatcher's split picks were within 4 % of the best timed configuration at all 8
// points where it split.
constexpr double kSplitReduceKBlocks = 4.0;
// The margin was 1.15 until the loop's descriptors moved to uniform registers (s26); at 1.10 four picks move to
// splits, forced in three shuffled rounds against the old picks (s26 calls 3-4): 7168x8192 M = 128 0.83-0.90,
// 1536x7168 M = 1024 0.96, 6144x7168 M = 256 0.975, 3072x7168 M = 512 0.98. At 1.05, 12288x7168 M = 128
// would split too: 1.05 (call 3).
constexpr double kSplitMargin = 1.10;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// What one round of a weight_rows-wide tile costs, in rows (see kTileFixedRows, kStraddleRows).
double tile_rows_cost(int weight_rows) {
  return weight_rows + kTileFixedRows + (tiled_scale_step(weight_rows) < weight_rows ? kStraddleRows : 0.0);
}

}  // namespace

int tiled_stage_bytes(int weight_rows, int token_tile) { return (token_tile + weight_rows) * 128; }

int tiled_out_bytes(int weight_rows, int token_tile) { return token_tile * weight_rows * 2; }

int tiled_smem_bytes(int weight_rows, int stages, int token_tile) {
  return kAlignSlack +
         stages * (tiled_stage_bytes(weight_rows, token_tile) + tiled_scale_bytes(token_tile) + kBarrierBytes) +
         tiled_out_bytes(weight_rows, token_tile);
}

int tiled_max_stages(int weight_rows, const DeviceInfo& dev, int token_tile) {
  const int64_t room = int64_t(dev.smem_per_block_optin) - kAlignSlack - tiled_out_bytes(weight_rows, token_tile);
  const int64_t per_stage = tiled_stage_bytes(weight_rows, token_tile) + tiled_scale_bytes(token_tile) + kBarrierBytes;
  return int(std::clamp<int64_t>(room / per_stage, 0, kTiledMaxStages));
}

bool tiled_weight_rows_supported(int weight_rows, int token_tile) {
  if (token_tile == kTiledWideTokenTile) {
    if (weight_rows < kTiledWideMinWeightRows || weight_rows > kTiledWideMaxWeightRows) return false;
  } else if (token_tile != kTiledTokenTile) {
    return false;
  }
  return std::find(std::begin(kTiledWeightRows), std::end(kTiledWeightRows), weight_rows) !=
         std::end(kTiledWeightRows);
}

bool tiled_cluster_supported(TiledCluster c, const DeviceInfo& dev) {
  const bool shape = (c.cta_m == 1 && (c.cta_n == 1 || c.cta_n == 2 || c.cta_n == 4)) ||
                     (c.cta_m == 2 && (c.cta_n == 1 || c.cta_n == 2 || c.cta_n == 4));
  return shape && (c.ctas() == 1 || dev.max_clusters[c.ctas()] > 0);
}

namespace {

// The units clusters of c walk (cta_m x cta_n tiles each), and how many such clusters run at once.
int64_t tiled_units(int64_t m, int64_t n, int weight_rows, TiledCluster c, int token_tile = kTiledTokenTile) {
  return ceil_div(ceil_div(std::max<int64_t>(m, 1), token_tile), c.cta_m) * ceil_div(ceil_div(n, weight_rows), c.cta_n);
}
int tiled_resident(TiledCluster c, const DeviceInfo& dev) {
  return std::max(c.ctas() == 1 ? dev.sm_count : dev.max_clusters[c.ctas()], 1);
}
// The rounds a cost counts for `units` on `resident` cluster slots: the busiest cluster's, and past one
// round their mean with the average (kAverageRoundsWeight).
double counted_rounds(int64_t units, int resident) {
  const int64_t busiest = ceil_div(units, resident);
  if (busiest <= 1) return double(busiest);
  return (1 - kAverageRoundsWeight) * double(busiest) + kAverageRoundsWeight * double(units) / resident;
}

}  // namespace

int64_t tiled_rounds(int64_t m, int64_t n, int weight_rows, TiledCluster c, const DeviceInfo& dev, int token_tile) {
  return ceil_div(tiled_units(m, n, weight_rows, c, token_tile), tiled_resident(c, dev));
}

double tiled_cost(int64_t m, int64_t n, int weight_rows, TiledCluster c, const DeviceInfo& dev, int token_tile) {
  const bool wide = token_tile == kTiledWideTokenTile;
  const bool one_token_tile = m <= token_tile;
  // (A pair along M over one token tile shares the weight with a CTA past M: no gain.)
  const double shared = c.cta_m > 1 && !one_token_tile  ? kPairAlongMFactor
                        : c.cta_n > 1 && one_token_tile ? kOneTokenTileAlongNFactor
                                                        : 1.0;
  const int64_t units = tiled_units(m, n, weight_rows, c, token_tile);
  const int resident = tiled_resident(c, dev);
  double width = tile_rows_cost(weight_rows) * (wide ? 2 * kTiledWideTileFactor : 1.0);
  if (units > resident && tiled_scale_blocks(weight_rows) > 2) width *= kThreeScaleBlocksFactor;
  return counted_rounds(units, resident) * width * shared;
}

namespace {

// The clusters the dispatcher considers (single CTAs first, so that they take exact ties). Left to
// forcing:
// - pairs along N beyond one token tile: 1.02-1.21x the time of pairs along M at M = 256 and 512 (s8
//   call 2); the cost never puts them below single CTAs there;
// - clusters of 4 along N: against pairs, 0.97-1.03x on one-wave shapes and 1.25-1.50x on
//   multi-round ones (s8 call 2).
constexpr TiledCluster kAutoClusters[] = {{1, 1}, {2, 1}, {1, 2}};

// The cheapest (cost, cluster) for one width; cta_m / cta_n already forced (non-zero) are kept.
std::pair<double, TiledCluster> best_cluster(int64_t m, int64_t n, int weight_rows, int forced_m, int forced_n,
                                             const DeviceInfo& dev, int token_tile = kTiledTokenTile) {
  std::pair<double, TiledCluster> best{-1.0, TiledCluster{}};
  for (TiledCluster c : kAutoClusters) {
    if ((forced_m && c.cta_m != forced_m) || (forced_n && c.cta_n != forced_n) || !tiled_cluster_supported(c, dev))
      continue;
    const double cost = tiled_cost(m, n, weight_rows, c, dev, token_tile);
    if (best.first < 0 || cost < best.first) best = {cost, c};
  }
  if (best.first < 0) best = {tiled_cost(m, n, weight_rows, TiledCluster{}, dev, token_tile), TiledCluster{}};
  return best;
}

// 2 x 4 clusters in place of the unsplit 2 x 1 pairs of 128-row tiles, where the pairs are L2-bound, with N a
// whole number of four-tile columns: over 128-token tiles where two run in one round of clusters of 8
// (kTiled2dMinTokens), over 256-token tiles up to kTiled2dWideMaxTokens where the clusters of 8 take no
// more rounds than the pairs (4096 x 7168 at M = 1024: 16 clusters of 8 on 15 slots, 1.20x the pairs).
constexpr TiledCluster k2x4{2, 4};
bool two_d_replaces_pair(int64_t m, int64_t n, int weight_rows, TiledCluster c, int token_tile,
                         const DeviceInfo& dev) {
  const bool pair = c.cta_m == 2 && c.cta_n == 1;
  if (weight_rows != kTiled2dClusterRows || !pair || ceil_div(n, weight_rows) % k2x4.cta_n != 0 ||
      !tiled_cluster_supported(k2x4, dev) || !tiled_2d_dispatch_enabled())
    return false;
  if (token_tile == kTiledWideTokenTile)
    return m <= kTiled2dWideMaxTokens && tiled_rounds(m, n, weight_rows, k2x4, dev, token_tile) <=
                                             tiled_rounds(m, n, weight_rows, c, dev, token_tile);
  return m >= kTiled2dMinTokens && m <= 2 * kTiledTokenTile &&
         tiled_units(m, n, weight_rows, k2x4) <= tiled_resident(k2x4, dev);
}

}  // namespace

double tiled_cost(int64_t m, int64_t n, int weight_rows, const DeviceInfo& dev, int token_tile) {
  return best_cluster(m, n, weight_rows, 0, 0, dev, token_tile).first;
}

int tiled_partial_bytes(int weight_rows) { return kTiledTokenTile * (weight_rows + kTiledPartialPad) * 4; }

// The 16-byte rule of tma_operand_ok holds for 16-byte loads too. A scale tensor of one row (M or
// N/128 of 1) or one column (one k-block) has no stride to check along that dimension.
TiledScaleRoute tiled_scale_route(const Problem& p, bool split, bool tma) {
  const int64_t kbs = p.k_blocks();
  const bool col = p.a_scale_stride_m == 1 && (kbs == 1 || p.a_scale_stride_k >= p.m);
  if (tma && col && tma_operand_ok(p.a_scale, tiled_scale_map_ld(p) * 4)) return kScalesTmaA;
  const bool rows = kbs % 4 == 0 && p.a_scale_stride_k == 1 && p.b_scale_stride_k == 1 &&
                    tma_operand_ok(p.a_scale, p.m == 1 ? 16 : p.a_scale_stride_m * 4) &&
                    tma_operand_ok(p.b_scale, p.n_blocks() == 1 ? 16 : p.b_scale_stride_n * 4);
  // (Not in the split-K kernel: its producers, which also carry their K range, then saved registers
  // to the stack.)
  return rows && !split ? kScalesRows : kScalesCopied;
}

bool tiled_split_fits(int64_t m, int64_t n, int64_t k, int weight_rows, int split, int stages, const DeviceInfo& dev) {
  if (split < 2 || split > kTiledMaxSplitK || split > k / 128 || dev.max_clusters[split] <= 0) return false;
  const int64_t units = tiled_units(m, n, weight_rows, TiledCluster{});
  return units <= dev.max_clusters[split] && int64_t(stages) * tiled_stage_bytes(weight_rows) >= tiled_partial_bytes(weight_rows);
}

double tiled_split_cost(int64_t m, int64_t n, int64_t k, int weight_rows, int split, const DeviceInfo& dev) {
  if (!tiled_split_fits(m, n, k, weight_rows, split, tiled_max_stages(weight_rows, dev), dev)) return -1;
  const int64_t kb = k / 128;
  return tile_rows_cost(weight_rows) * (double(ceil_div(kb, split)) + kSplitReduceKBlocks) / double(kb);
}

blockfp8_status_t check_tiled_config(blockfp8_config_t& cfg, int64_t m, int64_t n, int64_t k, const DeviceInfo& dev) {
  // Token tile and width both left to the default: the dispatcher's choice of both.
  const bool choose_tile = cfg.token_tile == 0 && cfg.weight_rows == 0;
  if (cfg.token_tile == 0) cfg.token_tile = kTiledTokenTile;
  if (cfg.warpgroups == 0) cfg.warpgroups = kTiledWarpgroups;
  if ((cfg.token_tile != kTiledTokenTile && cfg.token_tile != kTiledWideTokenTile) || cfg.split_k < 0 ||
      cfg.split_k > kTiledMaxSplitK || cfg.warpgroups != kTiledWarpgroups)
    return BLOCKFP8_ERROR_INVALID_CONFIG;
  if (cfg.weight_rows == 0 && cfg.token_tile == kTiledTokenTile) {
    // The wide tile only where nothing it cannot take was forced (a split, a cluster, a deeper ring).
    const bool may_widen = choose_tile && cfg.split_k != 1 && cfg.cluster_m == 0 && cfg.cluster_n == 0;
    const bool allow_split = cfg.split_k != 1;
    blockfp8_config_t chosen = choose_tiled_config(m, n, k, dev, allow_split, may_widen && tiled_wide_dispatch_enabled());
    if (chosen.token_tile == kTiledWideTokenTile && cfg.stages > chosen.stages)
      chosen = choose_tiled_config(m, n, k, dev, allow_split, /*allow_wide=*/false);
    cfg.token_tile = chosen.token_tile, cfg.weight_rows = chosen.weight_rows;
    if (cfg.cluster_m == 0 && cfg.cluster_n == 0) cfg.cluster_m = chosen.cluster_m, cfg.cluster_n = chosen.cluster_n;
    if (cfg.split_k == 0 && chosen.split_k > 1 && cfg.cluster_m <= 1 && cfg.cluster_n <= 1)
      cfg.split_k = chosen.split_k, cfg.cluster_m = cfg.cluster_n = 1;
  }
  const int tt = cfg.token_tile;
  if (tt == kTiledWideTokenTile) {  // unsplit; forced with the width left open, the widest it holds
    if (cfg.split_k > 1) return BLOCKFP8_ERROR_INVALID_CONFIG;
    cfg.split_k = 1;
    if (cfg.weight_rows == 0) cfg.weight_rows = kTiledWideMaxWeightRows;
  }
  if (cfg.split_k == 0) cfg.split_k = 1;
  if (!tiled_weight_rows_supported(cfg.weight_rows, tt)) return BLOCKFP8_ERROR_INVALID_CONFIG;
  if (cfg.cluster_m < 0 || cfg.cluster_n < 0) return BLOCKFP8_ERROR_INVALID_CONFIG;
  if (cfg.split_k > 1) {
    // Split-K clusters run along K only (no multicast cluster beside them).
    if (cfg.cluster_m > 1 || cfg.cluster_n > 1) return BLOCKFP8_ERROR_INVALID_CONFIG;
    cfg.cluster_m = cfg.cluster_n = 1;
  } else if (cfg.cluster_m == 0 || cfg.cluster_n == 0) {
    // One side forced (or none): the best cluster with it; the other side of a forced pair is 1.
    const TiledCluster c = cfg.cluster_m > 1 || cfg.cluster_n > 1
                               ? TiledCluster{std::max(cfg.cluster_m, 1), std::max(cfg.cluster_n, 1)}
                               : best_cluster(m, n, cfg.weight_rows, cfg.cluster_m, cfg.cluster_n, dev, tt).second;
    cfg.cluster_m = c.cta_m, cfg.cluster_n = c.cta_n;
  }
  if (!tiled_cluster_supported({cfg.cluster_m, cfg.cluster_n}, dev)) return BLOCKFP8_ERROR_INVALID_CONFIG;
  if (cfg.cluster_m > 1 && cfg.cluster_n > 1 && cfg.weight_rows != kTiled2dClusterRows)
    return BLOCKFP8_ERROR_INVALID_CONFIG;  // the 2-D clusters' only instances (128- and 256-token tiles)
  const int max_stages = tiled_max_stages(cfg.weight_rows, dev, tt);
  if (cfg.stages == 0) cfg.stages = max_stages;
  if (cfg.stages < kTiledMinStages || cfg.stages > max_stages) return BLOCKFP8_ERROR_INVALID_CONFIG;
  // A split runs one unit a cluster, every cluster of the grid resident at once, and parks its
  // partial in the ring.
  if (cfg.split_k > 1 && !tiled_split_fits(m, n, k, cfg.weight_rows, cfg.split_k, cfg.stages, dev))
    return BLOCKFP8_ERROR_INVALID_CONFIG;
  return BLOCKFP8_SUCCESS;
}

bool tiled_wide_dispatch_enabled() {
  static const bool enabled = env_switch("BLOCKFP8_TILED_WIDE", true);
  return enabled;
}

bool tiled_2d_dispatch_enabled() {
  static const bool enabled = env_switch("BLOCKFP8_TILED_2D", true);
  return enabled;
}

blockfp8_config_t choose_tiled_config(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev, bool allow_split,
                                      bool allow_wide) {
  int best = kTiledMaxWeightRows, best_split = 1, best_tt = kTiledTokenTile;
  TiledCluster best_c{};
  double best_cost = -1;
  const int max_split = ceil_div(m, kTiledTokenTile) > 2 ? kTiledMaxSplitManyTokenTiles : kTiledMaxSplitK;
  // Widest first, so that a tie keeps the wider tile (fewer A reloads).
  for (auto it = std::rbegin(kTiledWeightRows); it != std::rend(kTiledWeightRows); ++it) {
    if (tiled_max_stages(*it, dev) < kTiledMinStages) continue;
    const auto [cost, c] = best_cluster(m, n, *it, 0, 0, dev);
    if (best_cost < 0 || cost < best_cost) best = *it, best_c = c, best_cost = cost, best_split = 1;
    // From 65 tokens. Forced at M = 128 (s10 call 16): splits took 0.80-0.85x the unsplit pairs'
    // time on 4608x7168, 7168x8192 and 7168x16384, which the cost picks, and 1.14x on 7168x2048,
    // which it does not; at M = 64 the decode kernel was as fast (0.97-1.03x) or faster (short K).
    // The cost's own picks at M = 72-128 (s12 call 1): 0.71-0.93x on five long-K weights, unchanged
    // configurations (same times) on 7168x2048 and 12288x7168.
    for (int split = 2; allow_split && m > kTiledSplitMinTokens && split <= max_split; ++split) {
      const double sc = tiled_split_cost(m, n, k, *it, split, dev);
      if (sc >= 0 && sc * kSplitMargin < best_cost) best = *it, best_c = {}, best_cost = sc * kSplitMargin, best_split = split;
    }
  }
  // 256-token tiles of 128 rows (kTiledWideTileFactor, kTiledWideMinK): where their rounds come out better.
  // Forced against the 128-token picks at the 31 benchmark points where this picks them (s35 calls 2-3,
  // three shuffled rounds): 0.899-0.993x, geometric mean 0.957; e.g. 4096 x 7168 at M = 1024-4096
  // 0.90-0.93x, the N = 7168 weights with K >= 2048 at M = 4096 0.91-0.95x.
  constexpr int kWide = kTiledWideTokenTile, kWideRows = kTiledWideMaxWeightRows;
  if (allow_wide && m >= kTiledWideOneRoundMinTokens && k >= kTiledWideMinK &&
      tiled_max_stages(kWideRows, dev, kWide) >= kTiledMinStages) {
    const auto [cost, c] = best_cluster(m, n, kWideRows, 0, 0, dev, kWide);
    double rival = m >= kTiledWideMinTokens ? best_cost : -1;
    // kTiledWideOneRoundMinTokens: one round of them against a partial second of the unsplit 128-token
    // pick, whose cost is counted at its busiest rounds instead of their average.
    if (best_split == 1 && tiled_rounds(m, n, kWideRows, c, dev, kWide) == 1) {
      const int64_t units = tiled_units(m, n, best, best_c);
      const int resident = tiled_resident(best_c, dev);
      if (units > resident) rival = best_cost * double(ceil_div(units, resident)) / counted_rounds(units, resident);
    }
    if (cost < rival) best = kWideRows, best_c = c, best_cost = cost, best_split = 1, best_tt = kWide;
  }
  if (best_split == 1 && two_d_replaces_pair(m, n, best, best_c, best_tt, dev)) best_c = k2x4;
  blockfp8_config_t cfg{};
  cfg.kernel = BLOCKFP8_KERNEL_TILED;
  cfg.token_tile = best_tt;
  cfg.split_k = best_split;
  cfg.warpgroups = kTiledWarpgroups;
  cfg.weight_rows = best;
  cfg.cluster_m = best_c.cta_m, cfg.cluster_n = best_c.cta_n;
  cfg.stages = std::max(kTiledMinStages, tiled_max_stages(best, dev, best_tt));
  return cfg;
}

}  // namespace blockfp8::detail
