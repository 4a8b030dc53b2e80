#include "dispatch_tiled.h"

#include <algorithm>
#include <iterator>

namespace blockfp8::detail {

namespace {

constexpr int kAlignSlack = 1024;  // the ring is aligned up to 1024 bytes (128-byte swizzle atoms)
constexpr int kBarrierBytes = 16;  // full + empty mbarrier of one stage
// A tile's fixed cost in units of weight rows: loading its 128-token A tile every k-block, the
// pipeline fill and the epilogue do not shrink with the tile's width. Fitted on the H200 (N = 2112,
// K = 7168, M = 4096): 192-row tiles in 3 waves took 150.7 us, 144-row tiles in 4 waves 161 us,
// and 3 (192 + F) / 4 (144 + F) = 150.7 / 161 gives F = 49.5.
constexpr double kTileFixedRows = 48.0;
// Tiles that touch three 128-row b_scale blocks (176 rows: see tiled_scale_blocks) promote with
// a per-column choice among three scales and measured slower than the wave count says: on the
// H200 176 rows took 164 us where 192 rows took 150.7 us in the same 3 waves (M = 4096), and
// 52.9 us against 46.3 us in one wave (M = 1024), 17-22 % over the model.
constexpr double kThreeScaleBlockFactor = 1.18;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

int tiled_stage_bytes(int weight_rows) { return (kTiledTokenTile + weight_rows) * 128; }

int tiled_out_bytes(int weight_rows) { return kTiledTokenTile * weight_rows * 2; }

int tiled_smem_bytes(int weight_rows, int stages) {
  return kAlignSlack + stages * (tiled_stage_bytes(weight_rows) + kTiledScaleBytes + kBarrierBytes) +
         tiled_out_bytes(weight_rows);
}

int tiled_max_stages(int weight_rows, const DeviceInfo& dev) {
  const int64_t room = int64_t(dev.smem_per_block_optin) - kAlignSlack - tiled_out_bytes(weight_rows);
  const int64_t per_stage = tiled_stage_bytes(weight_rows) + kTiledScaleBytes + kBarrierBytes;
  return int(std::clamp<int64_t>(room / per_stage, 0, kTiledMaxStages));
}

bool tiled_weight_rows_supported(int weight_rows) {
  return std::find(std::begin(kTiledWeightRows), std::end(kTiledWeightRows), weight_rows) !=
         std::end(kTiledWeightRows);
}

double tiled_cost(int64_t m, int64_t n, int weight_rows, const DeviceInfo& dev) {
  const int64_t tiles = ceil_div(std::max<int64_t>(m, 1), kTiledTokenTile) * ceil_div(n, weight_rows);
  const int64_t waves = ceil_div(tiles, std::max(dev.sm_count, 1));
  const double factor = tiled_scale_blocks(weight_rows) > 2 ? kThreeScaleBlockFactor : 1.0;
  return double(waves) * (weight_rows + kTileFixedRows) * factor;
}

blockfp8_status_t check_tiled_config(blockfp8_config_t& cfg, int64_t m, int64_t n, int64_t k, const DeviceInfo& dev) {
  (void)k;  // any K: a persistent CTA streams k-blocks through the ring, whatever their number
  if (cfg.token_tile == 0) cfg.token_tile = kTiledTokenTile;
  if (cfg.split_k == 0) cfg.split_k = 1;
  if (cfg.warpgroups == 0) cfg.warpgroups = kTiledWarpgroups;
  if (cfg.token_tile != kTiledTokenTile || cfg.split_k != 1 || cfg.warpgroups != kTiledWarpgroups)
    return BLOCKFP8_ERROR_INVALID_CONFIG;
  if (cfg.weight_rows == 0) cfg.weight_rows = choose_tiled_config(m, n, k, dev).weight_rows;
  if (!tiled_weight_rows_supported(cfg.weight_rows)) return BLOCKFP8_ERROR_INVALID_CONFIG;
  const int max_stages = tiled_max_stages(cfg.weight_rows, dev);
  if (cfg.stages == 0) cfg.stages = max_stages;
  if (cfg.stages < kTiledMinStages || cfg.stages > max_stages) return BLOCKFP8_ERROR_INVALID_CONFIG;
  return BLOCKFP8_SUCCESS;
}

blockfp8_config_t choose_tiled_config(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev) {
  (void)k;
  int best = kTiledMaxWeightRows;
  double best_cost = -1;
  // Widest first, so that a tie keeps the wider tile (fewer A reloads).
  for (auto it = std::rbegin(kTiledWeightRows); it != std::rend(kTiledWeightRows); ++it) {
    if (tiled_max_stages(*it, dev) < kTiledMinStages) continue;
    const double cost = tiled_cost(m, n, *it, dev);
    if (best_cost < 0 || cost < best_cost) best = *it, best_cost = cost;
  }
  blockfp8_config_t cfg{};
  cfg.kernel = BLOCKFP8_KERNEL_TILED;
  cfg.token_tile = kTiledTokenTile;
  cfg.split_k = 1;
  cfg.warpgroups = kTiledWarpgroups;
  cfg.weight_rows = best;
  cfg.stages = std::max(kTiledMinStages, tiled_max_stages(best, dev));
  return cfg;
}

}  // namespace blockfp8::detail
