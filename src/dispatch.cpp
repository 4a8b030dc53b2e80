#include "dispatch.h"

#include <algorithm>
#include <iterator>

namespace blockfp8::detail {

int swapab_stage_bytes(int token_tile) { return (token_tile + kSwapabRowsPerTile) * 128; }

int swapab_smem_bytes(int token_tile, int stages, int kb_slice) {
  // 1024 bytes of alignment slack, the ring (tiles + two mbarriers a stage), TN + 4 scales a k-block.
  return 1024 + stages * (swapab_stage_bytes(token_tile) + 16) + kb_slice * (token_tile + 4) * 4;
}

int swapab_reduction_bytes(int token_tile) { return token_tile * kSwapabRedPitch * 4; }

int swapab_min_stages(int token_tile, int warpgroups) {
  const int held = token_tile <= kSwapabMaxPipelinedTokenTile ? 2 * warpgroups : 1;
  const int stage = swapab_stage_bytes(token_tile);
  return std::max(held, (swapab_reduction_bytes(token_tile) + stage - 1) / stage);
}

int swapab_max_stages(int token_tile, int kb_slice, const DeviceInfo& dev) {
  const int64_t room = int64_t(dev.smem_per_block_optin) - 1024 - int64_t(kb_slice) * (token_tile + 4) * 4;
  return int(std::max<int64_t>(0, std::min<int64_t>(kSwapabMaxStages, room / (swapab_stage_bytes(token_tile) + 16))));
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

// Cost of one split, in k-blocks streamed by the busiest CTA: every wave of clusters pays its CTAs'
// k-blocks plus a fixed start-up (launch, first-byte latency, cluster reduction) of about
// kWaveOverheadKBlocks k-blocks.
constexpr int kWaveOverheadKBlocks = 4;

int choose_split(int64_t tiles, int kb_total, const DeviceInfo& dev) {
  int best = 1;
  int64_t best_cost = -1;
  for (int s = 1; s <= std::min(kMaxSplitK, kb_total); ++s) {
    const int cap = cluster_capacity(s, dev);
    if (cap == 0) continue;
    const int64_t waves = (tiles + cap - 1) / cap;
    const int64_t cost = waves * (swapab_kb_slice(kb_total, s) + kWaveOverheadKBlocks);
    if (best_cost < 0 || cost < best_cost) best = s, best_cost = cost;
  }
  return best;
}

}  // namespace

blockfp8_config_t choose_config(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev) {
  blockfp8_config_t cfg{};
  cfg.kernel = BLOCKFP8_KERNEL_SWAPAB_SPLITK;
  cfg.token_tile = token_tile_for(std::max<int64_t>(m, 1));
  const int64_t tiles = ceil_div(n, kSwapabRowsPerTile) * int64_t(ceil_div(std::max<int64_t>(m, 1), cfg.token_tile));
  cfg.split_k = choose_split(tiles, int(k / 128), dev);
  cfg.stages = 0;
  cfg.warpgroups = default_warpgroups(cfg.token_tile);
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
      const int kb_total = int(k / 128);
      if (cfg.split_k < 1 || cfg.split_k > kMaxSplitK || cfg.split_k > kb_total) return BLOCKFP8_ERROR_INVALID_CONFIG;
      if (cluster_capacity(cfg.split_k, dev) == 0) return BLOCKFP8_ERROR_INVALID_CONFIG;
      if (cfg.warpgroups == 0) cfg.warpgroups = default_warpgroups(cfg.token_tile);
      if (cfg.warpgroups != 1 && cfg.warpgroups != 2) return BLOCKFP8_ERROR_INVALID_CONFIG;
      if (cfg.warpgroups == 2 && cfg.token_tile > kSwapabMaxTokenTileFor2Warpgroups) return BLOCKFP8_ERROR_INVALID_CONFIG;
      const int min_stages = swapab_min_stages(cfg.token_tile, cfg.warpgroups);
      const int max_stages = swapab_max_stages(cfg.token_tile, swapab_kb_slice(kb_total, cfg.split_k), dev);
      if (cfg.stages == 0) {
        // No deeper than the longest K slice of a CTA: more stages would never be filled.
        cfg.stages = std::max(min_stages, std::min(max_stages, swapab_kb_slice(kb_total, cfg.split_k)));
      }
      if (cfg.stages < min_stages || cfg.stages > max_stages) return BLOCKFP8_ERROR_INVALID_CONFIG;
      return BLOCKFP8_SUCCESS;
    }
    default:
      return BLOCKFP8_ERROR_INVALID_CONFIG;
  }
}

}  // namespace blockfp8::detail
