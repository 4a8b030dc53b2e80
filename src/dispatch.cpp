#include "dispatch.h"
#include "dispatch_tiled.h"

#include <algorithm>
#include <iterator>

namespace blockfp8::detail {

int swapab_stage_bytes(int token_tile, int weight_rows, int kblocks) {
  return kblocks * (token_tile + weight_rows) * 128;
}

int swapab_smem_bytes(int token_tile, int weight_rows, int kblocks, int stages, int kb_slice) {
  // + three mbarriers: full, empty, and the second warpgroup's full where two alternate (kAlternate)
  const int ring = stages * (swapab_stage_bytes(token_tile, weight_rows, kblocks) + 24);
  const int reduction = 2 * token_tile * kSwapabRedPitch * 4;  // double-buffered by tile
  const int scales = 2 * kb_slice * (token_tile + 4) * 4;      // this tile's and the next
  // wgmma reads 64 weight rows; past a short tile it reads whatever follows (those accumulator rows
  // are never stored), which must still be inside the allocation.
  const int overread = (kSwapabRowsPerTile - weight_rows) * 128;
  return 1024 + ring + std::max(reduction + scales, overread);
}

int swapab_fused_smem_bytes(int token_tile, int weight_rows, int kblocks, int stages, int kb_slice) {
  // The decode kernel's, less the token tiles of each stage, plus the K slice's resident tokens.
  return swapab_smem_bytes(token_tile, weight_rows, kblocks, stages, kb_slice) -
         stages * kblocks * token_tile * 128 + kb_slice * token_tile * 128;
}

int swapab_fused_stages(const blockfp8_config_t& cfg, int64_t m, int64_t n, int64_t k, const DeviceInfo& dev) {
  if (cfg.kernel != BLOCKFP8_KERNEL_SWAPAB_SPLITK || cfg.warpgroups != 2 || m > cfg.token_tile ||
      cfg.token_tile > kSwapabFusedMaxTokenTile || cfg.stage_kblocks < 1 || cfg.weight_rows < 1 ||
      swapab_rows_straddle(cfg.weight_rows))
    return 0;
  if (strip_ctas(n, cfg.weight_rows, cfg.split_k) > dev.sm_count) return 0;  // dispatch.h
  const int kb_slice = swapab_kb_slice(k / 128, cfg.split_k);
  if (m * kb_slice > kSwapabFusedMaxGroups) return 0;
  const int fixed = swapab_fused_smem_bytes(cfg.token_tile, cfg.weight_rows, cfg.stage_kblocks, 0, kb_slice);
  const int per_stage = swapab_fused_smem_bytes(cfg.token_tile, cfg.weight_rows, cfg.stage_kblocks, 1, kb_slice) - fixed;
  const int deepest = std::min<int>(kSwapabMaxStages, std::max(0, dev.smem_per_block_optin - fixed) / per_stage);
  const int stages = std::min(deepest, std::max(cfg.stages, swapab_min_stages(cfg.token_tile, 2)));
  return stages >= swapab_min_stages(cfg.token_tile, 2) ? stages : 0;
}

bool swapab_owner_sum_ok(const blockfp8_config_t& cfg, int kb_total, int lead) {
  if (cfg.warpgroups != 2 || cfg.token_tile > kSwapabOwnerSumMaxTokenTile || lead < 0 ||
      (cfg.flags & BLOCKFP8_FLAG_BATCH_INVARIANT) || !swapab_owner_sum_fits(cfg.split_k, cfg.weight_rows) ||
      swapab_rows_straddle(cfg.weight_rows) || cfg.stage_kblocks < 1)
    return false;
  for (int r = 0; r < cfg.split_k; ++r) {
    const int begin = swapab_slice_begin(kb_total, cfg.split_k, lead, r);
    if (swapab_slice_begin(kb_total, cfg.split_k, lead, r + 1) - begin < cfg.warpgroups * cfg.stage_kblocks) return false;
  }
  return true;
}

int swapab_min_stages(int token_tile, int warpgroups) {
  const int tokens = swapab_wg_tokens(token_tile, warpgroups);
  if (tokens > kSwapabMaxPipelinedTokenTile) return 1;
  return tokens < token_tile ? 2 : 2 * warpgroups;
}

int swapab_max_stages(int token_tile, int weight_rows, int kblocks, int kb_slice, const DeviceInfo& dev) {
  const int fixed = swapab_smem_bytes(token_tile, weight_rows, kblocks, 0, kb_slice);
  const int64_t room = int64_t(dev.smem_per_block_optin) - fixed;
  // What swapab_smem_bytes charges a stage (its three barriers included): a ring sized with 16 bytes a
  // stage, as before the third barrier, overran the opt-in limit by 56 bytes at 7168x18432, 8 tokens,
  // 56-row tiles, 13 stages (s22 call 6: the launch failed).
  const int per_stage = swapab_smem_bytes(token_tile, weight_rows, kblocks, 1, kb_slice) - fixed;
  return int(std::max<int64_t>(0, std::min<int64_t>(kSwapabMaxStages, room / per_stage)));
}

int swapab_default_stages(int token_tile, int weight_rows, int kblocks, int kb_slice, int warpgroups,
                          const DeviceInfo& dev) {
  const int per_slice = (kb_slice + kblocks - 1) / kblocks;
  return std::max(swapab_min_stages(token_tile, warpgroups),
                  std::min(swapab_max_stages(token_tile, weight_rows, kblocks, kb_slice, dev), per_slice + per_slice / 2));
}

int swapab_paired_stages(int token_tile, int weight_rows, int kblocks, int kb_slice, int warpgroups,
                         const DeviceInfo& dev) {
  const int fixed = swapab_smem_bytes(token_tile, weight_rows, kblocks, 0, kb_slice);
  const int per_stage = swapab_smem_bytes(token_tile, weight_rows, kblocks, 1, kb_slice) - fixed;
  const int room = dev.smem_per_sm / 2 - dev.smem_reserved_per_cta - fixed;
  const int stages = std::min(swapab_default_stages(token_tile, weight_rows, kblocks, kb_slice, warpgroups, dev),
                              std::max(0, room) / per_stage);
  if (stages < std::max(kSwapabUsefulStages, swapab_min_stages(token_tile, warpgroups))) return 0;
  const int smem = swapab_smem_bytes(token_tile, weight_rows, kblocks, stages, kb_slice);
  return swapab_ctas_per_sm(token_tile, warpgroups, smem, dev) >= 2 ? stages : 0;
}

int swapab_ctas_per_sm(int token_tile, int warpgroups, int smem_bytes, const DeviceInfo& dev) {
  int by_regs = 1;
  for (int i = 0; i < int(std::size(kSwapabTokenTiles)); ++i)
    if (kSwapabTokenTiles[i] == token_tile && warpgroups >= 1 && warpgroups <= 2) by_regs = dev.swapab_reg_ctas[i][warpgroups];
  const int by_smem = dev.smem_per_sm / std::max(1, smem_bytes + dev.smem_reserved_per_cta);
  return std::max(1, std::min(by_regs, by_smem));
}

int swapab_default_stage_kblocks(int token_tile, int weight_rows, int warpgroups, int kb_slice, bool split_rounds,
                                 const DeviceInfo& dev) {
  // Forced paths at 2112x7168, two runs on two machines (bench/results/2026-11-29-4a357f8-paths.jsonl.gz,
  // 2026-11-29-1465364-paths.jsonl.gz): split 3 with 2-k-block stages against 1, M = 1 / 16 / 32 / 64:
  // 7.95 / 8.27 / 8.67 / 11.05 against 8.40 / 8.49 / 8.99 / 11.07 us, and 7.96 / 8.23 / 8.62 / 11.05
  // against 8.39 / 8.49 / 9.00 / 11.07 us. Half the stages: half the barrier hand-offs and TMA issues.
  // Not where a split walks several rounds of tiles (forced paths, bench/results/2026-11-30-ee76064-
  // paths.jsonl.gz: 4608x7168 split 3, 2 rounds, 1 against 2 k-blocks 15.15 / 16.56 us; 9216x7168 split 2,
  // 3 rounds, 27.17 / 29.97; unsplit 9216x7168, 2 rounds, kept 2: 28.53 / 31.96), nor where the
  // larger boxes leave a shallow ring (7168x8192 M = 64: 4 stages of 2 k-blocks ran 28.8 us, 9 of one
  // 26.3 at 1465364). Shorter slices and tiles keep 8 KB.
  // Re-measured at `375fff6` (s28 call 6: the pick against its other depths at M = 16, 32 and 64 on every
  // DeepSeek weight, three shuffled rounds): one k-block took 0.977 / 0.983 / 0.980x the time of two for
  // 32-token, 64-row tiles (2112x7168 split 3, 4096x7168 split 2, 7168x2304), 1.003x on 7168x2048; and
  // 0.958-0.984x for 56-row 16-token tiles (7168x4096 to 7168x18432). Elsewhere two stayed as good or
  // better (64-row 16-token tiles: 1.018x on 2112x7168, 0.998x on 4096x7168). Interleaved against two
  // (call 7, M = 9-32): 0.977-0.989x on those three 32-token weights, 0.958-0.994x on the six 56-row
  // ones; 7168x2048 (16-k-block slices) 1.006-1.013x, so it keeps two.
  // Only where measured: 64-row tiles of 32 tokens over slices of 17-28 k-blocks, 56-row tiles of 16.
  // (48-row 16-token tiles on paired rings lost 1.09-1.11x with one k-block: 12288, 24576, 36864x7168.)
  const bool one_kblock =
      (token_tile == 32 && weight_rows == kSwapabRowsPerTile && kb_slice > kSwapabLongSliceKBlocks &&
       kb_slice <= kSwapabThinStageMaxSliceKBlocks) ||
      (token_tile == 16 && weight_rows == 56);
  const bool wide_boxes = !one_kblock && 2 * weight_rows > kSwapabRowsPerTile && kb_slice >= kSwapabLongSliceKBlocks &&
                          !split_rounds && swapab_max_stages(token_tile, weight_rows, 2, kb_slice, dev) >= kSwapabDeepRingStages;
  const int target_box = wide_boxes ? 16 * 1024 : 8 * 1024;
  int kb = std::max(1, std::min({kSwapabMaxStageKBlocks, kb_slice, target_box / (weight_rows * 128)}));
  const int want = std::max(swapab_min_stages(token_tile, warpgroups), 4);
  while (kb > 1 && swapab_max_stages(token_tile, weight_rows, kb, kb_slice, dev) < want) --kb;
  return kb;
}

namespace {

int ceil_div(int64_t a, int64_t b) { return int((a + b - 1) / b); }

int token_tile_for(int64_t m) {
  for (int t : kSwapabTokenTiles)
    if (m <= t) return t;
  return kSwapabTokenTiles[std::size(kSwapabTokenTiles) - 1];
}

int cluster_capacity(int split, const DeviceInfo& dev) {
  if (split >= 1 && split <= kMaxSplitK && dev.max_clusters[split] > 0) return dev.max_clusters[split];
  return 0;
}

// Tiles of a decode configuration: weight_rows x token_tile outputs each.
int64_t decode_tiles(int64_t m, int64_t n, int token_tile, int weight_rows) {
  return int64_t(ceil_div(n, weight_rows)) * ceil_div(std::max<int64_t>(m, 1), token_tile);
}

}  // namespace

bool swapab_split_rounds(int64_t m, int64_t n, int token_tile, int weight_rows, int split, const DeviceInfo& dev) {
  const int cap = cluster_capacity(split, dev);
  return split > 1 && cap > 0 && decode_tiles(m, n, token_tile, weight_rows) > cap;
}

namespace {

// What check_config fills in for (token_tile, weight_rows, split) on (m, n, k) when the caller leaves
// it open.
struct DefaultShape {
  int warpgroups, kb_slice, kblocks;
  DefaultShape(int64_t m, int64_t n, int64_t kb_total, int token_tile, int weight_rows, int split,
               const DeviceInfo& dev, int warpgroups_ = kSwapabDefaultWarpgroups)
      : warpgroups(warpgroups_),
        kb_slice(swapab_kb_slice(kb_total, split)),
        kblocks(swapab_default_stage_kblocks(token_tile, weight_rows, warpgroups, kb_slice,
                                             swapab_split_rounds(m, n, token_tile, weight_rows, split, dev), dev)) {}
};

// Whether the default configuration of (token_tile, weight_rows, split) runs (m, n, k) on dev with a
// ring of at least `min_ring` stages (0: the shallowest that cannot deadlock).
bool runnable(int64_t m, int64_t n, int64_t kb_total, int token_tile, int weight_rows, int split, int min_ring,
              int warpgroups, const DeviceInfo& dev) {
  if (split > kb_total || cluster_capacity(split, dev) == 0) return false;
  if (swapab_rows_straddle(weight_rows) && !swapab_straddle_ok(token_tile, warpgroups)) return false;
  const DefaultShape d(m, n, kb_total, token_tile, weight_rows, split, dev, warpgroups);
  const int deepest = swapab_max_stages(token_tile, weight_rows, d.kblocks, d.kb_slice, dev);
  const int per_slice = (d.kb_slice + d.kblocks - 1) / d.kblocks;  // a ring deeper than a K slice never fills
  return deepest >= swapab_min_stages(token_tile, d.warpgroups) && deepest >= std::min(min_ring, per_slice);
}

// CTAs of a decode configuration (default shape; stages 0: the default ring) that share one SM.
int ctas_per_sm(int64_t m, int64_t n, int64_t kb_total, int token_tile, int weight_rows, int split,
                const DeviceInfo& dev, int stages = 0, int warpgroups = kSwapabDefaultWarpgroups) {
  const DefaultShape d(m, n, kb_total, token_tile, weight_rows, split, dev, warpgroups);
  if (stages == 0) stages = swapab_default_stages(token_tile, weight_rows, d.kblocks, d.kb_slice, d.warpgroups, dev);
  return swapab_ctas_per_sm(token_tile, d.warpgroups,
                            swapab_smem_bytes(token_tile, weight_rows, d.kblocks, stages, d.kb_slice), dev);
}

// The CTAs that stream side by side on the busiest SM, where a round of `capacity` tiles (per_sm CTAs an
// SM) runs `tiles` tiles split `split` ways: they share its bandwidth.
int64_t streams_per_sm(int64_t tiles, int64_t capacity, int split, int per_sm, const DeviceInfo& dev) {
  return std::min<int64_t>(per_sm, ceil_div(std::min(tiles, capacity) * split, dev.sm_count));
}

// Tiles one round of the persistent grid takes: the clusters the device holds at once, times the CTAs
// of this footprint an SM holds (stages 0: the default ring).
int64_t round_capacity(int64_t m, int64_t n, int64_t kb_total, int token_tile, int weight_rows, int split,
                       const DeviceInfo& dev, int stages = 0) {
  return int64_t(cluster_capacity(split, dev)) * ctas_per_sm(m, n, kb_total, token_tile, weight_rows, split, dev, stages);
}

// The paired ring worth weighing for this configuration (see kSwapabPairedMaxTokenTile), or 0.
int paired_candidate(int64_t m, int64_t n, int64_t kb_total, int token_tile, int weight_rows, int split,
                     int warpgroups, const DeviceInfo& dev) {
  if (token_tile > kSwapabPairedMaxTokenTile || warpgroups != kSwapabDefaultWarpgroups) return 0;
  const int64_t tiles = decode_tiles(m, n, token_tile, weight_rows);
  if (tiles <= round_capacity(m, n, kb_total, token_tile, weight_rows, split, dev)) return 0;  // one round already
  // Only where the CTAs outnumber the SMs, so that pairing adds streams rather than spreading the
  // same ones thinner: 2112x7168 split 4 (132 CTAs) on paired rings ran 1.11x split 3's 99 on full ones.
  if (tiles * split <= dev.sm_count) return 0;
  const DefaultShape d(m, n, kb_total, token_tile, weight_rows, split, dev, warpgroups);
  return swapab_paired_stages(token_tile, weight_rows, d.kblocks, d.kb_slice, warpgroups, dev);
}

// The ring depth the dispatcher takes for cfg: its ring (cfg.stages, or the default one) within
// kSwapabRingWeightBytesPerSm of weight in flight an SM, shared by the CTAs that stream on one SM, where a
// CTA's whole stream (its rounds of tiles times its K slice) is at most kSwapabRingCapMaxStreamKBlocks;
// never so shallow that more CTAs would fit an SM than on the ring it replaces (the cost model and the
// grid count on that number). cfg.stages where nothing changes.
int weight_budget_stages(int64_t m, int64_t n, int64_t kb_total, const blockfp8_config_t& cfg, const DeviceInfo& dev) {
  const DefaultShape d(m, n, kb_total, cfg.token_tile, cfg.weight_rows, cfg.split_k, dev, cfg.warpgroups);
  const int stages = cfg.stages ? cfg.stages
                                : swapab_default_stages(cfg.token_tile, cfg.weight_rows, d.kblocks, d.kb_slice,
                                                        cfg.warpgroups, dev);
  auto ctas_at = [&](int s) {
    return ctas_per_sm(m, n, kb_total, cfg.token_tile, cfg.weight_rows, cfg.split_k, dev, s, cfg.warpgroups);
  };
  const int ctas = ctas_at(stages);
  const int64_t capacity = int64_t(cluster_capacity(cfg.split_k, dev)) * ctas;
  const int64_t tiles = decode_tiles(m, n, cfg.token_tile, cfg.weight_rows);
  if (capacity <= 0 || ceil_div(tiles, capacity) * d.kb_slice > kSwapabRingCapMaxStreamKBlocks) return cfg.stages;
  const int64_t sharing = streams_per_sm(tiles, capacity, cfg.split_k, ctas, dev);
  const int stage_weight = d.kblocks * cfg.weight_rows * 128;
  int capped = std::max(swapab_min_stages(cfg.token_tile, cfg.warpgroups),
                        int(kSwapabRingWeightBytesPerSm / sharing / stage_weight));
  if (cfg.stages) capped = std::max(capped, kSwapabUsefulStages);  // a paired ring stays a useful one
  while (capped < stages && ctas_at(capped) > ctas) ++capped;
  return capped < stages ? capped : cfg.stages;
}

// Tiles across b_scale blocks (heights 40-56) where they measured no slower: token tiles up to 32
// (at 64 tokens the promotion's two products a row cost 1.03-1.07x on four 7168-row weights) and K
// slices of 12+ k-blocks (s22 call 4, the dispatcher's picks against main's: 1.10-1.14x on 3072x1536
// at split 3, 4 k-blocks; 1.01x on 6144x1536 at 6; 0.95-0.96x on 12288x1536 at 12; 0.91-0.97x on
// 18432/12288/9216/6144/36864x7168).
// Three points where the paired rings' cost model took such tiles and they measured slower (s22 call
// 5, against main's picks, interleaved): 4608x7168 at 8 tokens 1.061x (40 rows, split 2; 1.002 at 16),
// 24576x1536 at 16 tokens 1.039x (48 rows; 1.003 at 32), 36864x7168 at 32 tokens 1.029x (56 rows,
// split 2; 0.967 at 8 and 16). Why these and not their neighbours is not measured, so they keep
// aligned tiles by name (token tile 0: every one).
struct StraddleLoss {
  int64_t n, k;
  int token_tile;
};
constexpr StraddleLoss kStraddleLosses[] = {{4608, 7168, 0}, {24576, 1536, 0}, {36864, 7168, 32}};

bool straddle_pays(int64_t n, int64_t k, int token_tile, int rows, int kb_slice) {
  if (!swapab_rows_straddle(rows)) return true;
  for (const StraddleLoss& l : kStraddleLosses)
    if (l.n == n && l.k == k && (l.token_tile == 0 || l.token_tile == token_tile)) return false;
  return token_tile <= kSwapabStraddleMaxTokenTile && kb_slice >= kSwapabStraddleMinSlice;
}

// Whether a full-ring decode configuration leaves SMs idle: its CTAs take several rounds, or one round
// on fewer than three quarters of the SMs over K slices of kSwapabPairedFewCtasMinSlice or more
// (2112x7168's 99 CTAs of 132 do not count: paired rings measured slower there).
bool leaves_sms_idle(int64_t m, int64_t n, int64_t kb_total, const blockfp8_config_t& cfg, const DeviceInfo& dev) {
  const int64_t tiles = decode_tiles(m, n, cfg.token_tile, cfg.weight_rows);
  return tiles > round_capacity(m, n, kb_total, cfg.token_tile, cfg.weight_rows, cfg.split_k, dev) ||
         (4 * tiles * cfg.split_k < 3 * int64_t(dev.sm_count) &&
          swapab_kb_slice(int(kb_total), cfg.split_k) >= kSwapabPairedFewCtasMinSlice);
}

}  // namespace

int swapab_two_tile_split(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev) {
  if (m <= kSwapabMaxPipelinedTokenTile || m > 2 * kSwapabMaxPipelinedTokenTile || n % kSwapabRowsPerTile != 0)
    return 0;
  const int64_t tiles = n / kSwapabRowsPerTile * 2;
  for (int split = 1; split <= kMaxSplitK; ++split)
    if (tiles * split == dev.sm_count && tiles <= cluster_capacity(split, dev) && split * 2 <= k / 128 &&
        runnable(m, n, k / 128, kSwapabMaxPipelinedTokenTile, kSwapabRowsPerTile, split, kSwapabUsefulStages,
                 kSwapabDefaultWarpgroups, dev))
      return split;
  return 0;
}

blockfp8_config_t planned_config(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev, bool invariant) {
  blockfp8_config_t chosen = invariant ? choose_batch_invariant_config(n, k, dev) : choose_config(m, n, k, dev);
  if (check_config(chosen, m, n, k, dev) == BLOCKFP8_SUCCESS) return chosen;
  blockfp8_config_t simt{};
  simt.kernel = BLOCKFP8_KERNEL_SIMT;
  return simt;
}

bool tiled_wins(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev) {
  if (m > kSwapabMaxM) return true;
  const int max_token_tile = kSwapabTokenTiles[std::size(kSwapabTokenTiles) - 1];
  if (m > max_token_tile) {
    // Several 128-token tiles. The tiled kernel runs one unsplit 128 x r tile per SM at about 0.5 us
    // a k-block whatever M, so where its tiles are few it loses to the split-K decode kernel, which
    // re-reads the weight per token tile (from L2 when the weight is small). Measured (bench/results/
    // logs/2026-11-30-828f9f1/paths.log, cold, decode vs tiled us): 576x7168 M=256 12.4 vs 29.6, M=512
    // 16.9 vs 29.6; 2112x7168 M=256 21.8 vs 29.6, M=512 38.9 vs 29.8; 4096x7168 M=256 38.8 vs 29.5;
    // 7168x2048 M=256 30.1 vs 12.8. Decode wins up to 66 tiles of 64 x 128, loses from 128.
    const int64_t tiles = decode_tiles(m, n, max_token_tile, kSwapabRowsPerTile);
    if (tiles * 2 > dev.sm_count) return true;
    // Fewer, and the tiled kernel wins where it splits K across a cluster (s10 call 2, cold us at
    // M = 256, decode vs tiled: 1536x7168 19.83 vs 15.96 split 4, 2112x7168 20.52 vs 19.17 split 3),
    // however few its tiles: 576x7168 (18 decode tiles at M = 256), forced in three shuffled rounds
    // against the decode picks (s32 call 4), took 0.88-0.90x at M = 129-224 and 0.93x at 256 (96 rows
    // split 8), 0.93x at 320 and 0.99x at 384 (64 rows split 4), 0.84-0.88x at 448-512 (96 rows split 4).
    return choose_tiled_config(m, n, k, dev).split_k > 1;
  }
  // Two 64-token tiles that fill every SM in one round (swapab_two_tile_split, dispatch.h).
  if (swapab_two_tile_split(m, n, k, dev) > 0) return false;
  // One token tile. The tiled kernel runs its weight tiles as cluster pairs that share the token tile
  // and loads no rows past M, so its time hardly moves with M up to 128, while the decode kernel's
  // grows with its token tile. Measured (s8 call 4, bench/results/logs/2026-11-30-s8-ab/call4,
  // forced paths, cold us, decode vs tiled): at M = 96-128 tiled from 36 weight tiles of 128 rows
  // (4608x7168 30.5 vs 26.0, 7168x2048 14.2 vs 10.7), decode below (4096x7168 20.4 vs 26.0, 3072x7168
  // 19.8 vs 25.3); at M = 64 tiled from 72 tiles (9216x7168 36.3 vs 31.2, 12288x7168 37.4 vs 31.4,
  // 16384x512 11.0 vs 7.4, 24576x1536 25.1 vs 16.0), decode at 56 (7168x16384 47.1 vs 54.6,
  // 7168x2048 9.0 vs 10.7) and 36 (4608x7168 19.6 vs 25.6).
  const int64_t weight_tiles = (n + 127) / 128, kb = k / 128;
  if (m > kSwapabMaxPipelinedTokenTile) {
    if (weight_tiles * 11 >= int64_t(dev.sm_count) * 3) return true;
    // Short K from 24 tiles, forced against the decode picks (s25 call 9, three shuffled rounds, tiled /
    // decode at M = 72-128): 4096x512 0.78-0.81, 3072x1536 0.92-0.94.
    if (weight_tiles >= kTiledMidShortKMinWeightTiles && kb <= kTiledMidShortKMaxKBlocks) return true;
    // Narrower long-K weights from 12 tiles, where the tiled kernel splits K over a cluster (up to 8
    // CTAs): above 64 tokens the decode kernel runs its 128-token tile and re-reads every token k-block
    // per 64 weight rows, the tiled kernel per 96-192. Forced (s13 calls 1-2, cold us at M = 96-128,
    // decode vs best split): 2112x7168 15.7 vs 13.0-13.2, 3072x7168 19.8 vs 16.6-16.7, 4096x7168 20.2-20.5
    // vs 17.4-17.8, 1536x7168 11.9 vs 11.5-11.7; 576x7168 (5 tiles) 8.6 vs 9.1: decode.
    return weight_tiles >= kTiledSplitMinWeightTiles && k >= kTiledSplitMinK &&
           choose_tiled_config(m, n, k, dev).split_k > 1;
  }
  // 33-64 tokens, short K: forced against the decode picks (s25 call 4, three shuffled rounds, tiled /
  // decode at M = 33-64): 7168x256 0.81, 7168x512 0.88-0.90, 8192x512 0.89-0.90, 4096x512 0.91-0.92,
  // 7168x1024 0.96-0.98; 6144x1536 0.99-1.01, 7168x2048-2304 1.03-1.07, 3072x1536 1.20.
  // And where the decode pick takes more than one round of clusters while the tiled kernel splits K
  // over one (s26 calls 3-4, three shuffled rounds, tiled split / decode): 4608x7168 0.83-0.85 at
  // M = 33-64 (72 tiles of 64 rows at split 3: 132 CTAs, then 84). One round of decode tiles lost to
  // the split there: 4096x7168 1.25, 3072x7168 1.10, 6144x7168 and 7168x16384 1.04.
  if (m > 32) {
    if (weight_tiles * 2 > dev.sm_count || (weight_tiles >= kTiledShortKMinWeightTiles && kb <= kTiledShortKMaxKBlocks))
      return true;
    const blockfp8_config_t d = choose_swapab_config(m, n, k, dev);
    const int64_t capacity = round_capacity(m, n, kb, d.token_tile, d.weight_rows, d.split_k, dev, d.stages);
    return capacity > 0 && decode_tiles(m, n, d.token_tile, d.weight_rows) > capacity &&
           choose_tiled_config(m, n, k, dev).split_k > 1;
  }
  // 5-32 tokens: wide weights with short K (kTiledFewTokensMaxKBlocks). Forced against the decode picks
  // in three shuffled rounds (s25 call 3, tiled / decode at M = 8, 16, 32): 20480x1536 0.93, 0.75, 0.69;
  // 24576x1536 0.93, 0.80, 0.76; 32768x512 0.87, 0.84, 0.76; 32768x1024 0.88, 0.85, 0.78; 24576x3072
  // 0.96, 0.96, 0.88. It lost where K is longer (24576x4096 1.02 at M = 8-16; 24576x7168 1.08-1.10;
  // 36864x7168 1.06-1.20), where the weight has at most as many tiles as SMs (16384x512 1.06-1.22,
  // 12288x1536 1.03-1.12) and at M = 4 (0.97-1.02) but for the shortest K: 32768x512 0.88-0.90 at
  // M = 1-4 (s25 call 9).
  // From 17 tokens also the shortest K from 32 tiles (s26 call 1, three shuffled rounds, tiled / decode):
  // 7168x256 0.92-0.94 at M = 17, 24, 32; at 4 k-blocks 8192x512 was even at M = 32 (s25).
  if (m > 16 && weight_tiles >= kTiledShortKMinWeightTiles && kb <= kTiledShortestKMaxKBlocks) return true;
  return weight_tiles > dev.sm_count && kb <= (m > 4 ? kTiledFewTokensMaxKBlocks : kTiledFewestTokensMaxKBlocks);
}

double swapab_cost_ns(int64_t m, int64_t n, int64_t k, int token_tile, int weight_rows, int split_k,
                      const DeviceInfo& dev, int stages) {
  if (cluster_capacity(split_k, dev) == 0 || split_k > k / 128) return 1e30;
  // Where a configuration's footprint is small (short K), several CTAs share an SM, and the launch
  // sizes its grid for all of them.
  const int per_sm = ctas_per_sm(m, n, k / 128, token_tile, weight_rows, split_k, dev, stages);
  const int64_t cap = int64_t(cluster_capacity(split_k, dev)) * per_sm;
  const int64_t m_tiles = ceil_div(std::max<int64_t>(m, 1), token_tile);
  const int64_t tiles = decode_tiles(m, n, token_tile, weight_rows);
  // The kernel is persistent: each cluster walks tiles cap apart, so the busiest SM streams
  // `rounds` tiles' K slices back to back without draining its pipeline in between.
  const int64_t rounds = (tiles + cap - 1) / cap;
  const int64_t sharing = streams_per_sm(tiles, cap, split_k, per_sm, dev);
  const int kb_slice = swapab_kb_slice(k / 128, split_k);
  // Per k-block an SM reads weight_rows weight rows from HBM and the token tile's rows that exist
  // (TMA fills rows past M with zeros without reading them) from L2, where every CTA of the K slice
  // finds them: counted at half weight (bench/results: at M = 32, 64-row tiles split 3 beat 32-row
  // tiles split 2, 8.8 against 10.0 us, which full weight would rank the other way).
  const double kb_bytes = 128.0 * (weight_rows + 0.5 * double(std::min<int64_t>(m, token_tile)));
  // The math of a k-block grows with the token tile (wgmma N): 8 tokens ~ kblock_ns, 64 ~ twice that.
  const double math_ns = dev.kblock_ns * (1.0 + token_tile / 64.0);
  const double sm_ns = double(rounds) * kb_slice * std::max(double(sharing) * kb_bytes / dev.sm_bytes_per_ns, math_ns);
  const double hbm_ns = double(m_tiles) * double(n) * double(k) / dev.hbm_bytes_per_ns;
  // Each further round of tiles pays a cluster barrier, the reduction and the next tile's scales, only
  // partly hidden behind its loads; the last tile's reduction is not hidden at all. 400 + 100 ns a rank
  // (the first fit), but 50 a rank from 32-token tiles: there splits of 2 on short K measured faster
  // than the unsplit picks the first fit makes (s33 call 5, forced, three shuffled rounds, split 2 /
  // unsplit at M = 24 and 32: 7168x512 0.91, 8192x512 0.94-0.95, 7168x1024 0.96), while at 16-token
  // tiles the splits that a lower term takes lost at 5 of 6 points (7168x512, 8192x512 1.05-1.07;
  // 1536x7168, 3072x1536, 6144x1536, 7168x1024 1.02-1.03; 4096x512 gained, 0.92).
  constexpr int kCheapSplitMinTokenTile = 32;
  const double split_ns = token_tile >= kCheapSplitMinTokenTile ? 50.0 * split_k : 400.0 + 100.0 * split_k;
  const double reduce_ns = split_k > 1 ? split_ns : 0.0;
  return std::max(sm_ns, hbm_ns) + double(rounds - 1) * dev.tile_ns + reduce_ns;
}

// Shapes where the many-strip rule below measured slower than the TMA kernel at M = 1-4 (s14 calls
// 3-4, interleaved): 16384x512 1.13-1.19x, 12288x1536 1.04x. Their neighbours gain (8192x512
// 0.77-0.83x, 32768x512 0.93-0.94x, 6144x1536 0.90-0.94x, 24576x1536 0.83-0.87x) and why these two do
// not is not understood, so they keep the TMA kernel by name.
struct WeightShape {
  int64_t n, k;
};
constexpr WeightShape kWarpMmaManyStripsLosses[] = {{16384, 512}, {12288, 1536}};

blockfp8_config_t choose_warpmma_config(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev) {
  blockfp8_config_t cfg{};
  if (m > kWarpMmaMaxM) return cfg;
  // Wider strips first: each strip reads the tokens once more. Eight warps; rings of 4 k-blocks for
  // 16-row strips, 2 for 32-row ones (s11 call 3, M = 1 / 8, cold us: 2112x7168 6.27 / 7.53 against
  // 6.40-6.76 / 7.67-8.03 for 12 or 16 warps or rings of 2 or 8; 4096x7168 9.68 / 10.80, 3072x1536
  // 3.46 / 3.87, 4096x512 2.49 / 2.67, within 1 % of the best width or better). From 7 tokens the
  // 16-row strips' slots carry more token bytes and a ring of 2 is faster: 0.976-0.991x at M = 7-8 on
  // 2112x7168 and 1536x7168, while at M = 3-6 the two shapes disagree (0.979-1.038x; s12 calls 14-15,
  // shuffled rounds). The launcher keeps such a grid at one CTA an SM.
  const int64_t sms = dev.sm_count;
  auto take = [&](int rows, int split) {
    cfg.kernel = BLOCKFP8_KERNEL_WARP_MMA;
    cfg.token_tile = 8, cfg.weight_rows = rows, cfg.split_k = split;
    cfg.warpgroups = 2, cfg.stage_kblocks = rows == 32 || m >= kWarpMmaShortRingM ? 2 : 4;
    return cfg;
  };
  for (const int rows : {32, 16}) {
    const int64_t strips = strip_ctas(n, rows, 1);
    if (rows == 16 && m > kWarpMmaThinPartialRoundMaxM && 4 * strips < 3 * sms) continue;
    if (strips <= sms && 3 * strips >= 2 * sms) return take(rows, 1);
  }
  // Too few strips of 16 for a round: K split over a cluster, the largest split that keeps one round
  // (576x7168, 36 strips: split 3 0.85-0.92x the TMA kernel at M = 1-8, split 2 0.86-0.99x; s14 call 3).
  for (int split = kWarpMmaMaxSplit; split >= 2; --split) {
    const int64_t ctas = strip_ctas(n, 16, split);
    if (ctas <= sms && 3 * ctas >= 2 * sms && ctas / split <= dev.max_clusters[split]) return take(16, split);
  }
  // Well over a round of strips of 32, at a few tokens: one CTA a strip, several an SM (s14 call 4:
  // 0.70-0.97x the TMA kernel at M = 1-4 on 24 of the 27 DeepSeek shapes with more strips than SMs;
  // call 6: 0.78-0.99x at M = 5-8 where K <= 1536).
  // Just over one round, a few SMs carry two strips while the rest idle: 4608x7168 (144 strips)
  // measured 1.07-1.10x, hence the quarter-round margin.
  const int64_t strips32 = strip_ctas(n, 32, 1);
  bool loses = false;
  for (const WeightShape& s : kWarpMmaManyStripsLosses) loses |= s.n == n && s.k == k;
  const int64_t max_m = k <= kWarpMmaManyStripsShortK ? kWarpMmaMaxM : kWarpMmaManyStripsMaxM;
  if (m <= max_m && 4 * strips32 > 5 * sms && !loses) return take(32, 1);
  return cfg;
}

blockfp8_config_t choose_config(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev) {
  if (blockfp8_config_t measured; measured_pick(m, n, k, dev, &measured)) {
    if (check_config(measured, m, n, k, dev) == BLOCKFP8_SUCCESS) return measured;
  }
  // The decode kernel re-reads the weight once per 128 tokens; the tiled kernel reads each weight tile
  // once per wave of token tiles but runs unsplit (tiled_wins says where each wins).
  if (tiled_wins(m, n, k, dev)) {
    blockfp8_config_t tiled = choose_tiled_config(m, n, k, dev);
    if (check_tiled_config(tiled, m, n, k, dev) == BLOCKFP8_SUCCESS) return tiled;
  }
  const blockfp8_config_t warpmma = choose_warpmma_config(m, n, k, dev);
  if (warpmma.kernel == BLOCKFP8_KERNEL_WARP_MMA) return warpmma;
  return choose_swapab_config(m, n, k, dev);
}

blockfp8_config_t choose_swapab_config(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev) {
  blockfp8_config_t cfg{};
  cfg.kernel = BLOCKFP8_KERNEL_SWAPAB_SPLITK;
  cfg.token_tile = token_tile_for(std::max<int64_t>(m, 1));
  cfg.warpgroups = kSwapabDefaultWarpgroups;
  cfg.stages = 0;
  if (const int split = swapab_two_tile_split(m, n, k, dev)) {
    cfg.token_tile = kSwapabMaxPipelinedTokenTile, cfg.weight_rows = kSwapabRowsPerTile, cfg.split_k = split;
    cfg.stage_kblocks = 1;
    return cfg;
  }
  const int64_t kb_total = k / 128;
  double best = -1;
  // Near-ties go to the smaller split (less reduction), then the wider tile (fewer, larger requests).
  // Rings of kSwapabUsefulStages first; shallower ones only when no configuration has one. One math
  // warpgroup only where two cannot run (its ring may be a single stage: very long K slices).
  for (int warpgroups : {kSwapabDefaultWarpgroups, 1}) {
    for (int min_ring : {kSwapabUsefulStages, 0}) {
      for (int s = 1; s <= kMaxSplitK; ++s) {
        for (int r = int(std::size(kSwapabWeightRows)) - 1; r >= 0; --r) {
          const int rows = kSwapabWeightRows[r];
          if (!straddle_pays(n, k, cfg.token_tile, rows, swapab_kb_slice(int(kb_total), s))) continue;
          if (!runnable(m, n, kb_total, cfg.token_tile, rows, s, min_ring, warpgroups, dev)) continue;
          const double cost = swapab_cost_ns(m, n, k, cfg.token_tile, rows, s, dev);
          if (best < 0 || cost < best * 0.98) best = cost, cfg.weight_rows = rows, cfg.split_k = s;
        }
      }
      if (best >= 0) break;
    }
    if (best >= 0) {
      cfg.warpgroups = warpgroups;
      break;
    }
  }
  if (best < 0) {
    cfg.weight_rows = kSwapabRowsPerTile, cfg.split_k = 1;  // check_config will refuse it
    return cfg;
  }
  if (leaves_sms_idle(m, n, kb_total, cfg, dev)) {
    // Paired rings, where the best full-ring configuration cannot fill the SMs in one round.
    for (int s = 1; s <= kMaxSplitK; ++s) {
      for (int r = int(std::size(kSwapabWeightRows)) - 1; r >= 0; --r) {
        const int rows = kSwapabWeightRows[r];
        if (!straddle_pays(n, k, cfg.token_tile, rows, swapab_kb_slice(int(kb_total), s))) continue;
        const int paired = paired_candidate(m, n, kb_total, cfg.token_tile, rows, s, cfg.warpgroups, dev);
        if (!paired) continue;
        const double cost = swapab_cost_ns(m, n, k, cfg.token_tile, rows, s, dev, paired);
        if (cost < best * 0.98) best = cost, cfg.weight_rows = rows, cfg.split_k = s, cfg.stages = paired;
      }
    }
  }
  // A near-tie that streams from more SMs: the cost model charges a k-block a fixed pace whatever its
  // rows, so it ranks 56-row tiles on the N = 7168 weights (128 CTAs) level with 64-row ones (112).
  // Measured (s22 call 4, forced, split 1, 56 against 64 rows): 0.95-0.98x at M = 8-32 on 7168 x
  // 4608/8192/16384 (0.995 once), 1.006-1.022x on 7168 x 2048 (16 k-blocks a CTA), 1.03-1.07x at 64
  // tokens (straddle_pays). Long slices only, and not where paired rings took over (they fill the SMs
  // their own way).
  if (cfg.stages == 0 && !swapab_rows_straddle(cfg.weight_rows)) {
    const int64_t ctas = std::min<int64_t>(decode_tiles(m, n, cfg.token_tile, cfg.weight_rows) * cfg.split_k, dev.sm_count);
    const int kb_slice = swapab_kb_slice(int(kb_total), cfg.split_k);
    for (int r = int(std::size(kSwapabWeightRows)) - 1; r >= 0; --r) {  // the tallest that fills first
      const int rows = kSwapabWeightRows[r];
      if (!swapab_rows_straddle(rows) || rows > cfg.weight_rows || kb_slice < kSwapabStraddleFillMinSlice ||
          !straddle_pays(n, k, cfg.token_tile, rows, kb_slice) ||
          !runnable(m, n, kb_total, cfg.token_tile, rows, cfg.split_k, kSwapabUsefulStages, cfg.warpgroups, dev))
        continue;
      const int64_t more = decode_tiles(m, n, cfg.token_tile, rows) * cfg.split_k;
      if (more > dev.sm_count || 10 * more < 11 * ctas) continue;  // one round, at least 10 % more SMs
      if (swapab_cost_ns(m, n, k, cfg.token_tile, rows, cfg.split_k, dev) <= best * 1.02) {
        cfg.weight_rows = rows;
        break;
      }
    }
  }
  cfg.stages = weight_budget_stages(m, n, kb_total, cfg, dev);
  return cfg;
}

bool warpmma_instantiated(int token_tile, int weight_rows, int kblocks) {
#define BLOCKFP8_WARPMMA_MATCH(TT, RR, UU) \
  if (token_tile == TT && weight_rows == RR && kblocks == UU) return true;
  BLOCKFP8_WARPMMA_CONFIGS(BLOCKFP8_WARPMMA_MATCH)
#undef BLOCKFP8_WARPMMA_MATCH
  return false;
}

bool warpmma_fused_ok(const blockfp8_config_t& cfg, int64_t m, int64_t n, int64_t k, const DeviceInfo& dev) {
  if (cfg.kernel != BLOCKFP8_KERNEL_WARP_MMA || m > cfg.token_tile) return false;
  bool instantiated = false;
#define BLOCKFP8_WARPMMA_FUSED_MATCH(TT, RR, UU) \
  instantiated |= cfg.token_tile == TT && cfg.weight_rows == RR && cfg.stage_kblocks == UU;
  BLOCKFP8_WARPMMA_FUSED_CONFIGS(BLOCKFP8_WARPMMA_FUSED_MATCH)
#undef BLOCKFP8_WARPMMA_FUSED_MATCH
  if (!instantiated) return false;
  const int kb_slice = swapab_kb_slice(k / 128, cfg.split_k);
  const int64_t pass = int64_t(2 * 4 * cfg.warpgroups) * kWarpMmaFusedLoads;  // groups one pass of loads covers
  if (m * kb_slice > pass) return false;
  // Every CTA quantises its own slice, so with several CTAs an SM (many strips) the work and the X
  // reads multiply: at most one pass an SM over the grid (s14 call 7: above it, 36864x7168 M = 1 took
  // 1.32x two launches; below it, 0.62-0.95x).
  if (strip_ctas(n, cfg.weight_rows, cfg.split_k) * m * kb_slice > pass * dev.sm_count) return false;
  return warpmma_smem_bytes(cfg.token_tile, cfg.weight_rows, cfg.stage_kblocks, 4 * cfg.warpgroups, kb_slice) <=
         dev.smem_per_block_optin;
}

int warpmma_default_kblocks(int token_tile, int weight_rows) {
  int best = 0;
#define BLOCKFP8_WARPMMA_MAX(TT, RR, UU) \
  if (token_tile == TT && weight_rows == RR) best = std::max(best, UU);
  BLOCKFP8_WARPMMA_CONFIGS(BLOCKFP8_WARPMMA_MAX)
#undef BLOCKFP8_WARPMMA_MAX
  return best;
}

blockfp8_config_t choose_batch_invariant_config(int64_t n, int64_t k, const DeviceInfo& dev) {
  // The geometry the dispatcher picks for one token, at a fixed 32-token tile and two warpgroups:
  // nothing below depends on M.
  blockfp8_config_t cfg = choose_swapab_config(1, n, k, dev);
  cfg.token_tile = kBatchInvariantTokenTile;
  cfg.warpgroups = 2;
  cfg.stages = 0;
  cfg.stage_kblocks = 1;
  cfg.flags = BLOCKFP8_FLAG_BATCH_INVARIANT;
  return cfg;
}

blockfp8_status_t check_config(blockfp8_config_t& cfg, int64_t m, int64_t n, int64_t k, const DeviceInfo& dev) {
  // Clusters of token or weight tiles are the tiled kernel's; the decode kernel's cluster is its split.
  if (cfg.kernel != BLOCKFP8_KERNEL_TILED && cfg.kernel != BLOCKFP8_KERNEL_AUTO && (cfg.cluster_m || cfg.cluster_n))
    return BLOCKFP8_ERROR_INVALID_CONFIG;
  switch (cfg.kernel) {
    case BLOCKFP8_KERNEL_AUTO:
      cfg = choose_config(m, n, k, dev);
      return check_config(cfg, m, n, k, dev);
    case BLOCKFP8_KERNEL_SIMT:
      cfg.token_tile = cfg.split_k = cfg.stages = cfg.warpgroups = 0;
      return BLOCKFP8_SUCCESS;
    case BLOCKFP8_KERNEL_SWAPAB_SPLITK: {
      if (std::find(std::begin(kSwapabTokenTiles), std::end(kSwapabTokenTiles), cfg.token_tile) ==
          std::end(kSwapabTokenTiles))
        return BLOCKFP8_ERROR_INVALID_CONFIG;
      if (cfg.weight_rows == 0) cfg.weight_rows = kSwapabRowsPerTile;
      if (std::find(std::begin(kSwapabWeightRows), std::end(kSwapabWeightRows), cfg.weight_rows) ==
          std::end(kSwapabWeightRows))
        return BLOCKFP8_ERROR_INVALID_CONFIG;
      const int kb_total = int(k / 128);
      if (cfg.split_k < 1 || cfg.split_k > kMaxSplitK || cfg.split_k > kb_total) return BLOCKFP8_ERROR_INVALID_CONFIG;
      if (cluster_capacity(cfg.split_k, dev) == 0) return BLOCKFP8_ERROR_INVALID_CONFIG;
      if (cfg.warpgroups == 0) {  // two where they can run, else one (as the dispatcher chooses)
        blockfp8_config_t two = cfg;
        two.warpgroups = kSwapabDefaultWarpgroups;
        if (check_config(two, m, n, k, dev) == BLOCKFP8_SUCCESS) return cfg = two, BLOCKFP8_SUCCESS;
        cfg.warpgroups = 1;
      }
      if (cfg.warpgroups != 1 && cfg.warpgroups != 2) return BLOCKFP8_ERROR_INVALID_CONFIG;
      if (swapab_rows_straddle(cfg.weight_rows) && !swapab_straddle_ok(cfg.token_tile, cfg.warpgroups))
        return BLOCKFP8_ERROR_INVALID_CONFIG;
      const int kb_slice = swapab_kb_slice(kb_total, cfg.split_k);
      if (cfg.stage_kblocks == 0)
        cfg.stage_kblocks = swapab_default_stage_kblocks(
            cfg.token_tile, cfg.weight_rows, cfg.warpgroups, kb_slice,
            swapab_split_rounds(m, n, cfg.token_tile, cfg.weight_rows, cfg.split_k, dev), dev);
      if (cfg.stage_kblocks < 1 || cfg.stage_kblocks > kSwapabMaxStageKBlocks) return BLOCKFP8_ERROR_INVALID_CONFIG;
      const int min_stages = swapab_min_stages(cfg.token_tile, cfg.warpgroups);
      const int max_stages = swapab_max_stages(cfg.token_tile, cfg.weight_rows, cfg.stage_kblocks, kb_slice, dev);
      if (cfg.stages == 0)
        cfg.stages = swapab_default_stages(cfg.token_tile, cfg.weight_rows, cfg.stage_kblocks, kb_slice, cfg.warpgroups, dev);
      if (cfg.stages < min_stages || cfg.stages > max_stages) return BLOCKFP8_ERROR_INVALID_CONFIG;
      return BLOCKFP8_SUCCESS;
    }
    case BLOCKFP8_KERNEL_TILED: return check_tiled_config(cfg, m, n, k, dev);
    case BLOCKFP8_KERNEL_WARP_MMA: {
      if (cfg.weight_rows == 0) cfg.weight_rows = 16;
      if (cfg.warpgroups == 0) cfg.warpgroups = kWarpMmaDefaultWarpgroups;
      if (cfg.split_k == 0) cfg.split_k = 1;
      if (cfg.stage_kblocks == 0) cfg.stage_kblocks = warpmma_default_kblocks(cfg.token_tile, cfg.weight_rows);
      if (!warpmma_instantiated(cfg.token_tile, cfg.weight_rows, cfg.stage_kblocks)) return BLOCKFP8_ERROR_INVALID_CONFIG;
      if (cfg.warpgroups < 1 ||
          cfg.warpgroups * 4 > warpmma_max_warps(cfg.token_tile))
        return BLOCKFP8_ERROR_INVALID_CONFIG;
      if (cfg.split_k < 1 || cfg.split_k > kMaxSplitK || cfg.split_k > k / 128) return BLOCKFP8_ERROR_INVALID_CONFIG;
      if (cfg.split_k > 1 && cluster_capacity(cfg.split_k, dev) == 0) return BLOCKFP8_ERROR_INVALID_CONFIG;
      if (cfg.stages != 0) return BLOCKFP8_ERROR_INVALID_CONFIG;  // the ring is stage_kblocks
      if (warpmma_smem_bytes(cfg.token_tile, cfg.weight_rows, cfg.stage_kblocks, 4 * cfg.warpgroups) >
          dev.smem_per_block_optin)
        return BLOCKFP8_ERROR_INVALID_CONFIG;
      return BLOCKFP8_SUCCESS;
    }
    default:
      return BLOCKFP8_ERROR_INVALID_CONFIG;
  }
}

}  // namespace blockfp8::detail
