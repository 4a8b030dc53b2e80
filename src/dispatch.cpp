#include "dispatch.h"
#include "dispatch_tiled.h"

#include <algorithm>
#include <iterator>

namespace blockfp8::detail {

int swapab_stage_bytes(int token_tile, int weight_rows, int kblocks) {
  return kblocks * (token_tile + weight_rows) * 128;
}

int swapab_smem_bytes(int token_tile, int weight_rows, int kblocks, int stages, int kb_slice) {
  const int ring = stages * (swapab_stage_bytes(token_tile, weight_rows, kblocks) + 16);  // + two mbarriers
  const int reduction = 2 * token_tile * kSwapabRedPitch * 4;  // double-buffered by tile
  const int scales = 2 * kb_slice * (token_tile + 4) * 4;      // this tile's and the next
  // wgmma reads 64 weight rows; past a short tile it reads whatever follows (those accumulator rows
  // are never stored), which must still be inside the allocation.
  const int overread = (kSwapabRowsPerTile - weight_rows) * 128;
  return 1024 + ring + std::max(reduction + scales, overread);
}

int swapab_min_stages(int token_tile, int warpgroups) {
  return token_tile <= kSwapabMaxPipelinedTokenTile ? 2 * warpgroups : 1;
}

int swapab_max_stages(int token_tile, int weight_rows, int kblocks, int kb_slice, const DeviceInfo& dev) {
  const int fixed = swapab_smem_bytes(token_tile, weight_rows, kblocks, 0, kb_slice);
  const int64_t room = int64_t(dev.smem_per_block_optin) - fixed;
  const int per_stage = swapab_stage_bytes(token_tile, weight_rows, kblocks) + 16;
  return int(std::max<int64_t>(0, std::min<int64_t>(kSwapabMaxStages, room / per_stage)));
}

int swapab_default_stage_kblocks(int token_tile, int weight_rows, int warpgroups, int kb_slice,
                                 const DeviceInfo& dev) {
  constexpr int kTargetWeightBoxBytes = 8 * 1024;
  int kb = std::max(1, std::min({kSwapabMaxStageKBlocks, kb_slice, kTargetWeightBoxBytes / (weight_rows * 128)}));
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

int default_warpgroups(int token_tile) { return token_tile <= kSwapabMaxTokenTileFor2Warpgroups ? 2 : 1; }

int cluster_capacity(int split, const DeviceInfo& dev) {
  if (split >= 1 && split <= kMaxSplitK && dev.max_clusters[split] > 0) return dev.max_clusters[split];
  return 0;
}

bool runnable(int token_tile, int weight_rows, int split, int64_t kb_total, const DeviceInfo& dev) {
  if (split > kb_total || cluster_capacity(split, dev) == 0) return false;
  const int w = default_warpgroups(token_tile);
  const int slice = swapab_kb_slice(kb_total, split);
  const int kblocks = swapab_default_stage_kblocks(token_tile, weight_rows, w, slice, dev);
  return swapab_max_stages(token_tile, weight_rows, kblocks, slice, dev) >= swapab_min_stages(token_tile, w);
}

}  // namespace

double swapab_cost_ns(int64_t m, int64_t n, int64_t k, int token_tile, int weight_rows, int split_k,
                      const DeviceInfo& dev) {
  const int cap = cluster_capacity(split_k, dev);
  if (cap == 0) return 1e30;
  const int64_t m_tiles = ceil_div(std::max<int64_t>(m, 1), token_tile);
  const int64_t tiles = int64_t(ceil_div(n, weight_rows)) * m_tiles;
  // The kernel is persistent: each cluster walks tiles cap apart, so the busiest SM streams
  // `rounds` tiles' K slices back to back without draining its pipeline in between.
  const int64_t rounds = (tiles + cap - 1) / cap;
  const int kb_slice = swapab_kb_slice(k / 128, split_k);
  // Per k-block an SM reads weight_rows weight rows from HBM and the token tile's rows that exist
  // (TMA fills rows past M with zeros without reading them) from L2, where every CTA of the K slice
  // finds them: counted at half weight (bench/results: at M = 32, 64-row tiles split 3 beat 32-row
  // tiles split 2, 8.8 against 10.0 us, which full weight would rank the other way).
  const double kb_bytes = 128.0 * (weight_rows + 0.5 * double(std::min<int64_t>(m, token_tile)));
  // The math of a k-block grows with the token tile (wgmma N): 8 tokens ~ kblock_ns, 64 ~ twice that.
  const double math_ns = dev.kblock_ns * (1.0 + token_tile / 64.0);
  const double sm_ns = double(rounds) * kb_slice * std::max(kb_bytes / dev.sm_bytes_per_ns, math_ns);
  const double hbm_ns = double(m_tiles) * double(n) * double(k) / dev.hbm_bytes_per_ns;
  // Each further round of tiles pays a cluster barrier, the reduction and the next tile's scales, only
  // partly hidden behind its loads; the last tile's reduction is not hidden at all.
  const double reduce_ns = split_k > 1 ? 400.0 + 100.0 * split_k : 0.0;
  return std::max(sm_ns, hbm_ns) + double(rounds - 1) * dev.tile_ns + reduce_ns;
}

blockfp8_config_t choose_config(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev) {
  // Above kSwapabMaxM tokens the decode kernel re-reads the weight once per 128 tokens and runs its
  // widest tile without overlap; the tiled kernel reads each weight tile once per wave of token tiles
  // (bench/results: at N=2112, K=7168 decode 25.3 / tiled 27.8 us at M=128, 34.3 / 28.9 at M=256).
  if (m > kSwapabMaxM) {
    blockfp8_config_t tiled = choose_tiled_config(m, n, k, dev);
    if (check_tiled_config(tiled, m, n, k, dev) == BLOCKFP8_SUCCESS) return tiled;
  }
  blockfp8_config_t cfg{};
  cfg.kernel = BLOCKFP8_KERNEL_SWAPAB_SPLITK;
  cfg.token_tile = token_tile_for(std::max<int64_t>(m, 1));
  cfg.warpgroups = default_warpgroups(cfg.token_tile);
  cfg.stages = 0;
  const int64_t kb_total = k / 128;
  double best = -1;
  // Near-ties go to the smaller split (less reduction), then the wider tile (fewer, larger requests).
  for (int s = 1; s <= kMaxSplitK; ++s) {
    for (int r = int(std::size(kSwapabWeightRows)) - 1; r >= 0; --r) {
      const int rows = kSwapabWeightRows[r];
      if (!runnable(cfg.token_tile, rows, s, kb_total, dev)) continue;
      const double cost = swapab_cost_ns(m, n, k, cfg.token_tile, rows, s, dev);
      if (best < 0 || cost < best * 0.98) best = cost, cfg.weight_rows = rows, cfg.split_k = s;
    }
  }
  if (best < 0) cfg.weight_rows = kSwapabRowsPerTile, cfg.split_k = 1;  // check_config will refuse it
  return cfg;
}

blockfp8_config_t choose_batch_invariant_config(int64_t n, int64_t k, const DeviceInfo& dev) {
  // The geometry the dispatcher picks for one token, at a fixed 32-token tile and two warpgroups:
  // nothing below depends on M.
  blockfp8_config_t cfg = choose_config(1, n, k, dev);
  cfg.kernel = BLOCKFP8_KERNEL_SWAPAB_SPLITK;
  cfg.token_tile = kBatchInvariantTokenTile;
  cfg.warpgroups = 2;
  cfg.stages = 0;
  cfg.stage_kblocks = 1;
  cfg.flags = BLOCKFP8_FLAG_BATCH_INVARIANT;
  return cfg;
}

blockfp8_status_t check_config(blockfp8_config_t& cfg, int64_t m, int64_t n, int64_t k, const DeviceInfo& dev) {
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
      if (cfg.warpgroups == 0) cfg.warpgroups = default_warpgroups(cfg.token_tile);
      if (cfg.warpgroups != 1 && cfg.warpgroups != 2) return BLOCKFP8_ERROR_INVALID_CONFIG;
      if (cfg.warpgroups == 2 && cfg.token_tile > kSwapabMaxTokenTileFor2Warpgroups) return BLOCKFP8_ERROR_INVALID_CONFIG;
      const int kb_slice = swapab_kb_slice(kb_total, cfg.split_k);
      if (cfg.stage_kblocks == 0)
        cfg.stage_kblocks = swapab_default_stage_kblocks(cfg.token_tile, cfg.weight_rows, cfg.warpgroups, kb_slice, dev);
      if (cfg.stage_kblocks < 1 || cfg.stage_kblocks > kSwapabMaxStageKBlocks) return BLOCKFP8_ERROR_INVALID_CONFIG;
      const int min_stages = swapab_min_stages(cfg.token_tile, cfg.warpgroups);
      const int max_stages = swapab_max_stages(cfg.token_tile, cfg.weight_rows, cfg.stage_kblocks, kb_slice, dev);
      if (cfg.stages == 0) {
        // Deep enough to hold a whole K slice and the start of the next tile's: more stages would
        // never be filled.
        const int per_slice = (kb_slice + cfg.stage_kblocks - 1) / cfg.stage_kblocks;
        cfg.stages = std::max(min_stages, std::min(max_stages, per_slice + per_slice / 2));
      }
      if (cfg.stages < min_stages || cfg.stages > max_stages) return BLOCKFP8_ERROR_INVALID_CONFIG;
      return BLOCKFP8_SUCCESS;
    }
    case BLOCKFP8_KERNEL_TILED: return check_tiled_config(cfg, m, n, k, dev);
    default:
      return BLOCKFP8_ERROR_INVALID_CONFIG;
  }
}

}  // namespace blockfp8::detail
