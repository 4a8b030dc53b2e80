// The tiled (prefill) kernel's rules: forced-config validation, defaults, shared-memory budget and
// the weight_rows choice, on a described device (no GPU needed).
#include <gtest/gtest.h>

#include <cstdlib>
#include <utility>

#include "dispatch.h"
#include "dispatch_tiled.h"

using namespace blockfp8::detail;

namespace {

DeviceInfo h200() { return DeviceInfo{}; }

blockfp8_config_t tiled(int32_t weight_rows, int32_t stages = 0, int32_t token_tile = 128, int32_t split_k = 1,
                        int32_t warpgroups = 2) {
  blockfp8_config_t c{};
  c.kernel = BLOCKFP8_KERNEL_TILED, c.token_tile = token_tile, c.split_k = split_k, c.stages = stages;
  c.warpgroups = warpgroups, c.weight_rows = weight_rows;
  return c;
}

TEST(DispatchTiled, EverySupportedWeightRowsFitsADeepRing) {
  const DeviceInfo d = h200();
  for (int rows : kTiledWeightRows) {
    EXPECT_EQ(rows % 16, 0);
    EXPECT_GE(tiled_max_stages(rows, d), 4) << rows;
    EXPECT_LE(tiled_smem_bytes(rows, tiled_max_stages(rows, d)), d.smem_per_block_optin) << rows;
    blockfp8_config_t c = tiled(rows);
    ASSERT_EQ(check_tiled_config(c, 4096, 2112, 7168, d), BLOCKFP8_SUCCESS) << rows;
    EXPECT_EQ(c.stages, tiled_max_stages(rows, d));
  }
  // The widest tile: 4 stages of 40 KB + the 48 KB output tile + scales, barriers, alignment slack.
  EXPECT_EQ(tiled_smem_bytes(192, 4), 1024 + 4 * (40960 + 640 + 16) + 49152);
  EXPECT_EQ(tiled_max_stages(192, d), 4);
}

// The wide token tile: 256 tokens against 96-128 weight rows, forced only, never split.
TEST(DispatchTiled, WideTokenTile) {
  const DeviceInfo d = h200();
  // 3 stages of 48 KB + the 64 KB output tile + 1152 bytes of scales a stage, barriers, slack.
  EXPECT_EQ(tiled_smem_bytes(128, 3, kTiledWideTokenTile), 1024 + 3 * (49152 + 1152 + 16) + 65536);
  EXPECT_EQ(tiled_max_stages(128, d, kTiledWideTokenTile), 3);
  auto status = [&](blockfp8_config_t c) { return check_config(c, 4096, 2112, 7168, d); };
  for (int rows : {96, 112, 128}) {
    blockfp8_config_t c = tiled(rows, 0, 256);
    ASSERT_EQ(check_tiled_config(c, 4096, 2112, 7168, d), BLOCKFP8_SUCCESS) << rows;
    EXPECT_EQ(c.stages, tiled_max_stages(rows, d, 256)) << rows;
    EXPECT_LE(tiled_smem_bytes(rows, c.stages, 256), d.smem_per_block_optin) << rows;
    EXPECT_EQ(c.token_tile, 256);
  }
  blockfp8_config_t c = tiled(0, 0, 256);
  ASSERT_EQ(check_tiled_config(c, 4096, 2112, 7168, d), BLOCKFP8_SUCCESS);
  EXPECT_EQ(c.weight_rows, kTiledWideMaxWeightRows);
  EXPECT_EQ(c.split_k, 1);
  for (int rows : {64, 80, 144, 192}) EXPECT_EQ(status(tiled(rows, 0, 256)), BLOCKFP8_ERROR_INVALID_CONFIG) << rows;
  EXPECT_EQ(status(tiled(128, 0, 256, 2)), BLOCKFP8_ERROR_INVALID_CONFIG);  // no split-K instance
  EXPECT_EQ(status(tiled(128, 4, 256)), BLOCKFP8_ERROR_INVALID_CONFIG);     // 4 stages do not fit
  EXPECT_EQ(status(tiled(128, 2, 256)), BLOCKFP8_SUCCESS);
}

TEST(DispatchTiled, DefaultsAreFilledIn) {
  const DeviceInfo d = h200();
  blockfp8_config_t c{};
  c.kernel = BLOCKFP8_KERNEL_TILED;
  ASSERT_EQ(check_tiled_config(c, 4096, 2112, 7168, d), BLOCKFP8_SUCCESS);
  EXPECT_EQ(c.token_tile, 128);
  EXPECT_EQ(c.split_k, 1);
  EXPECT_EQ(c.warpgroups, 2);
  EXPECT_EQ(c.weight_rows, choose_tiled_config(4096, 2112, 7168, d).weight_rows);
  EXPECT_GE(c.stages, kTiledMinStages);
  // Through the general entry point too.
  blockfp8_config_t g{};
  g.kernel = BLOCKFP8_KERNEL_TILED;
  EXPECT_EQ(check_config(g, 4096, 2112, 7168, d), BLOCKFP8_SUCCESS);
  EXPECT_EQ(g.weight_rows, c.weight_rows);
}

TEST(DispatchTiled, BadForcedConfigsAreRefused) {
  const DeviceInfo d = h200();
  auto status = [&](blockfp8_config_t c) { return check_config(c, 1024, 2112, 7168, d); };
  EXPECT_EQ(status(tiled(128)), BLOCKFP8_SUCCESS);
  EXPECT_EQ(status(tiled(72)), BLOCKFP8_ERROR_INVALID_CONFIG);   // not a multiple of 16
  EXPECT_EQ(status(tiled(100)), BLOCKFP8_ERROR_INVALID_CONFIG);  // not a multiple of 16
  EXPECT_EQ(status(tiled(48)), BLOCKFP8_ERROR_INVALID_CONFIG);   // below 64
  EXPECT_EQ(status(tiled(208)), BLOCKFP8_ERROR_INVALID_CONFIG);  // above the register budget
  EXPECT_EQ(status(tiled(256)), BLOCKFP8_ERROR_INVALID_CONFIG);
  EXPECT_EQ(status(tiled(-16)), BLOCKFP8_ERROR_INVALID_CONFIG);
  EXPECT_EQ(status(tiled(128, 0, 64)), BLOCKFP8_ERROR_INVALID_CONFIG);   // token tile
  EXPECT_EQ(status(tiled(128, 0, 192)), BLOCKFP8_ERROR_INVALID_CONFIG);  // token tile
  EXPECT_EQ(status(tiled(128, 0, 128, 2)), BLOCKFP8_ERROR_INVALID_CONFIG);  // no split-K
  EXPECT_EQ(status(tiled(128, 0, 128, -1)), BLOCKFP8_ERROR_INVALID_CONFIG);
  EXPECT_EQ(status(tiled(128, 0, 128, 1, 1)), BLOCKFP8_ERROR_INVALID_CONFIG);  // warpgroups
  EXPECT_EQ(status(tiled(128, 0, 128, 1, 3)), BLOCKFP8_ERROR_INVALID_CONFIG);
  EXPECT_EQ(status(tiled(128, 1)), BLOCKFP8_ERROR_INVALID_CONFIG);  // ring too shallow
  EXPECT_EQ(status(tiled(128, 2)), BLOCKFP8_SUCCESS);
  EXPECT_EQ(status(tiled(128, tiled_max_stages(128, d))), BLOCKFP8_SUCCESS);
  EXPECT_EQ(status(tiled(128, tiled_max_stages(128, d) + 1)), BLOCKFP8_ERROR_INVALID_CONFIG);
  EXPECT_EQ(status(tiled(192, -1)), BLOCKFP8_ERROR_INVALID_CONFIG);
  // A device with less shared memory holds fewer stages.
  DeviceInfo small = d;
  small.smem_per_block_optin = 150 * 1024;
  blockfp8_config_t c = tiled(192, 4);
  EXPECT_EQ(check_tiled_config(c, 1024, 2112, 7168, small), BLOCKFP8_ERROR_INVALID_CONFIG);
  c = tiled(192);
  ASSERT_EQ(check_tiled_config(c, 1024, 2112, 7168, small), BLOCKFP8_SUCCESS);
  EXPECT_EQ(c.stages, 2);
  EXPECT_LE(tiled_smem_bytes(192, c.stages), small.smem_per_block_optin);
  // Too little for two stages of the widest tile: refused, and never chosen.
  small.smem_per_block_optin = 100 * 1024;
  c = tiled(192);
  EXPECT_EQ(check_tiled_config(c, 1024, 2112, 7168, small), BLOCKFP8_ERROR_INVALID_CONFIG);
  for (int64_t m : {128, 4096, 16384}) {
    blockfp8_config_t chosen = choose_tiled_config(m, 2112, 7168, small);
    EXPECT_EQ(check_tiled_config(chosen, m, 2112, 7168, small), BLOCKFP8_SUCCESS) << m;
  }
}

TEST(DispatchTiled, ChoiceDoesNotPadNTo128) {
  const DeviceInfo d = h200();
  // 2112 rows at prefill sizes: 12 x 176 or 11 x 192 tiles, not 17 x 128 (the last one half empty).
  for (int64_t m : {4096, 8192, 16384}) {
    const blockfp8_config_t c = choose_tiled_config(m, 2112, 7168, d);
    EXPECT_EQ(2112 % c.weight_rows, 0) << m << ": " << c.weight_rows;
    EXPECT_LT(tiled_cost(m, 2112, c.weight_rows, d), tiled_cost(m, 2112, 128, d)) << m;
  }
  EXPECT_EQ(choose_tiled_config(16384, 2112, 7168, d).weight_rows, 192);
  // Widths that do not divide N are allowed when the waves come out better (the tail tile is
  // partly empty, never N rounded up to 128).
  EXPECT_EQ(choose_tiled_config(1024, 100, 7168, d).weight_rows % 16, 0);
}

TEST(DispatchTiled, ChoiceBalancesWaves) {
  const DeviceInfo d = h200();
  // Settled sweeps (s15 calls 3-4: every width 128-192, shuffled rounds, each graph replayed 100 ms
  // before timing), where the GPU runs at its power limit: 192-row tiles beat 176 at M >= 2048 on
  // every shape where the old cost picked 176 (2112x7168 M = 4096: 134.8 us against 145.7; 7168 x
  // 16384: 1000.7 against 1075.3), though at M = 4096 the busiest cluster runs as many units with either.
  // (Where 256-token tiles of 128 rows cost less still, they replace both: see WideTilesWhereTheirRoundsPay.)
  EXPECT_EQ(choose_tiled_config(4096, 2112, 7168, d).weight_rows, 192);
  EXPECT_EQ(choose_tiled_config(4096, 7168, 16384, d, true, /*allow_wide=*/false).weight_rows, 192);
  for (int64_t n : {4096, 7168})
    for (int64_t m : {2048, 4096, 8192})
      EXPECT_EQ(choose_tiled_config(m, n, 7168, d, true, /*allow_wide=*/false).weight_rows, 192) << n << " " << m;
  // The 176-row factor applies over several rounds only: in one round (7168 x 16384 at M = 384,
  // s9 call 6) 176 rows measured best, and the cost of a single round is unchanged.
  // (+17: a 176-row tile's columns can fall in two b_scale blocks.)
  EXPECT_DOUBLE_EQ(tiled_cost(128, 7168, 176, {1, 1}, d), 176.0 + 80.0 + 17.0);
  EXPECT_GT(tiled_cost(4096, 7168, 176, {1, 1}, d), 10 * (176.0 + 80.0 + 17.0));  // 41 x 32 tiles: 9.94 rounds, x 1.08
  // M = 1024: 144-row tiles fill one wave (120 tiles), measured best (35.6 us; 192: 40.3, 128: 54.4,
  // s9 call 4).
  EXPECT_EQ(choose_tiled_config(1024, 2112, 7168, d).weight_rows, 144);
  for (int rows : kTiledWeightRows) EXPECT_EQ(tiled_scale_blocks(rows), rows == 176 ? 3 : 2) << rows;
  // The chosen cost is the minimum over every supported width (and below it where K is split), and with
  // the wide rule on, over the 256-token tile of 128 rows too.
  for (bool wide : {false, true})
    for (int64_t m : {128, 300, 1024, 4096, 16384})
      for (int64_t n : {16, 100, 576, 2112, 4097, 7168, 24576}) {
        const blockfp8_config_t c = choose_tiled_config(m, n, 7168, d, true, wide);
        const double chosen = c.split_k > 1 ? tiled_split_cost(m, n, 7168, c.weight_rows, c.split_k, d)
                                            : tiled_cost(m, n, c.weight_rows, d, c.token_tile);
        // (A wide tile may also win as one round against a partial second: WideTilesInOneRound.)
        const bool one_round_wide = c.token_tile == kTiledWideTokenTile &&
                                    tiled_rounds(m, n, 128, {c.cluster_m, c.cluster_n}, d, kTiledWideTokenTile) == 1;
        for (int rows : kTiledWeightRows)
          if (!one_round_wide) EXPECT_LE(chosen, tiled_cost(m, n, rows, d)) << m << " " << n << " " << rows;
        if (wide && m >= kTiledWideMinTokens)
          EXPECT_LE(chosen, tiled_cost(m, n, 128, d, kTiledWideTokenTile)) << m << " " << n;
      }
  // Few tiles, unsplit: spread them over more SMs with narrower tiles.
  for (int k_split : {0, 1}) {
    blockfp8_config_t c = tiled(0);
    c.split_k = k_split;
    ASSERT_EQ(check_tiled_config(c, 128, 2112, 1536, d), BLOCKFP8_SUCCESS);
    if (c.split_k == 1) EXPECT_LT(c.weight_rows, 128);
  }
}

// 256-token tiles of 128 rows (s35 call 2, forced against the 128-token picks, three shuffled rounds):
// chosen where their rounds come out better, e.g. 4096 x 7168 at M = 1024-8192 (0.90-0.99x) and
// 7168 x 16384 at M = 4096 (0.93x); not on 2112 x 7168 (17 tiles of 128 rows a token tile: 1.04-1.19x),
// nor below kTiledWideMinTokens, nor where the default is not asked for.
TEST(DispatchTiled, WideTilesWhereTheirRoundsPay) {
  const DeviceInfo d = h200();
  auto wide_rule = [&](int64_t m, int64_t n, int64_t k) { return choose_tiled_config(m, n, k, d, true, /*allow_wide=*/true); };
  for (int64_t m : {1024, 2048, 4096, 8192}) {
    const blockfp8_config_t c = wide_rule(m, 4096, 7168);
    EXPECT_EQ(c.token_tile, kTiledWideTokenTile) << m;
    EXPECT_EQ(c.weight_rows, 128) << m;
    EXPECT_EQ(c.split_k, 1) << m;
    EXPECT_EQ(c.stages, tiled_max_stages(128, d, kTiledWideTokenTile)) << m;
    // Every field left to the default: the dispatcher's choice itself, whichever rule is on.
    const blockfp8_config_t chosen = choose_tiled_config(m, 4096, 7168, d);
    blockfp8_config_t dflt = tiled(0, 0, 0, 0);
    ASSERT_EQ(check_tiled_config(dflt, m, 4096, 7168, d), BLOCKFP8_SUCCESS);
    EXPECT_EQ(dflt.token_tile, chosen.token_tile) << m;
    EXPECT_EQ(dflt.weight_rows, chosen.weight_rows) << m;
    EXPECT_EQ(dflt.cluster_m, chosen.cluster_m) << m;
    EXPECT_EQ(dflt.cluster_n, chosen.cluster_n) << m;
    blockfp8_config_t t128 = tiled(0);  // a forced 128-token tile keeps it
    ASSERT_EQ(check_tiled_config(t128, m, 4096, 7168, d), BLOCKFP8_SUCCESS);
    EXPECT_EQ(t128.token_tile, 128) << m;
    blockfp8_config_t deep = tiled(0, 4, 0, 0);  // a ring the wide tile cannot hold: a 128-token choice
    ASSERT_EQ(check_tiled_config(deep, m, 4096, 7168, d), BLOCKFP8_SUCCESS);
    EXPECT_EQ(deep.token_tile, 128) << m;
  }
  EXPECT_EQ(wide_rule(4096, 7168, 16384).token_tile, kTiledWideTokenTile);
  for (int64_t m : {1024, 2048, 4096, 8192}) EXPECT_EQ(wide_rule(m, 2112, 7168).token_tile, 128) << m;
  for (int64_t m : {128, 256, 384, 511}) EXPECT_EQ(wide_rule(m, 4096, 7168).token_tile, 128) << m;
  // Short K (s35 call 3: 1.02-1.11x on 7168x256, 7168x512, 4096x512 at M = 1024-8192; s36 call 2:
  // 1.07-1.11x on 7168x1024).
  for (int64_t k : {256, 512, 896, 1024, 1536}) EXPECT_EQ(wide_rule(4096, 7168, k).token_tile, 128) << k;
  EXPECT_EQ(wide_rule(4096, 7168, 2048).token_tile, kTiledWideTokenTile);
  // Off, no 256-token tile is ever chosen.
  for (int64_t m : {512, 1024, 4096, 8192})
    for (int64_t n : {2112, 4096, 7168})
      EXPECT_EQ(choose_tiled_config(m, n, 7168, d, true, /*allow_wide=*/false).token_tile, 128) << m << " " << n;
  // On by default; BLOCKFP8_TILED_WIDE=0 (read once per process) is the A/B switch.
  if (std::getenv("BLOCKFP8_TILED_WIDE") == nullptr) EXPECT_TRUE(tiled_wide_dispatch_enabled());
  // Weighed at 0.9375 x two 128-token tiles of 128 rows: one round of each on a grid both fill.
  EXPECT_DOUBLE_EQ(tiled_cost(256, 4096, 128, {1, 1}, d, kTiledWideTokenTile), 2 * 0.9375 * (128.0 + 80.0));
}

// One round of 256-token tiles against a partial second of 128 x 128 pairs (s36 call 1, forced at
// M = 512, three shuffled rounds: 0.84-0.97x on 7168 x 2048-16384): the N = 7168 weights with K >= 2048
// from M = 385, where 128-token tiles are four to a column. Not where the 128-token pick takes one
// round (4096 x 7168: 1.29x; 2112 x 7168), nor a split pick (3072 x 7168: 1.53x), nor on short K
// (7168 x 1024: 1.06x), nor at three 128-token tiles a column (M = 384).
TEST(DispatchTiled, WideTilesInOneRound) {
  const DeviceInfo d = h200();
  auto wide_rule = [&](int64_t m, int64_t n, int64_t k) { return choose_tiled_config(m, n, k, d, true, /*allow_wide=*/true); };
  for (int64_t k : {2048, 2304, 4096, 4608, 8192, 9216, 16384, 18432})
    for (int64_t m : {385, 448, 512}) {
      const blockfp8_config_t c = wide_rule(m, 7168, k);
      EXPECT_EQ(c.token_tile, kTiledWideTokenTile) << m << " " << k;
      EXPECT_EQ(tiled_rounds(m, 7168, 128, {c.cluster_m, c.cluster_n}, d, kTiledWideTokenTile), 1) << m << " " << k;
      const blockfp8_config_t t128 = choose_tiled_config(m, 7168, k, d, true, /*allow_wide=*/false);
      EXPECT_GT(tiled_rounds(m, 7168, t128.weight_rows, {t128.cluster_m, t128.cluster_n}, d), 1) << m << " " << k;
    }
  for (int64_t k : {2048, 4608, 18432}) EXPECT_EQ(wide_rule(384, 7168, k).token_tile, 128) << k;
  for (int64_t m : {400, 512}) {
    EXPECT_EQ(wide_rule(m, 4096, 7168).token_tile, 128) << m;
    EXPECT_EQ(wide_rule(m, 2112, 7168).token_tile, 128) << m;
    EXPECT_EQ(wide_rule(m, 3072, 7168).token_tile, 128) << m;
    EXPECT_EQ(wide_rule(m, 7168, 1024).token_tile, 128) << m;
  }
}

// Tiles whose rows can fall in two 128-row b_scale blocks pay kStraddleRows (s18): one round of
// 128-row tiles beat 112 on the N = 7168 weights at M = 256-512 (0.86-0.98x at 7 of 8 points, s18
// call 10; 3-8 % on single CTAs, s9 call 6), and the settled large-M picks stay (192 rows, above).
TEST(DispatchTiled, OneRoundOf128RowTilesOnN7168) {
  const DeviceInfo d = h200();
  for (int64_t k : {512, 2048, 4096, 16384})
    for (int64_t m : {256, 512}) EXPECT_EQ(choose_tiled_config(m, 7168, k, d).weight_rows, 128) << k << " " << m;
  // Only widths that can straddle pay: 64 and 128 never do.
  EXPECT_DOUBLE_EQ(tiled_cost(128, 7168, 128, {1, 1}, d), 128.0 + 80.0);
  EXPECT_DOUBLE_EQ(tiled_cost(128, 7168, 64, {1, 1}, d), 64.0 + 80.0);
  EXPECT_DOUBLE_EQ(tiled_cost(128, 7168, 112, {1, 1}, d), 112.0 + 80.0 + 17.0);
  EXPECT_DOUBLE_EQ(tiled_cost(128, 7168, 192, {1, 1}, d), 192.0 + 80.0 + 17.0);
}

TEST(DispatchTiled, ChosenConfigsAreValidEverywhere) {
  const DeviceInfo d = h200();
  for (int64_t m : {1, 127, 128, 129, 300, 4096, 16384})
    for (int64_t n : {1, 16, 100, 2112, 4097, 24576})
      for (int64_t k : {128, 7168, 16384}) {
        blockfp8_config_t c = choose_tiled_config(m, n, k, d);
        EXPECT_EQ(c.kernel, BLOCKFP8_KERNEL_TILED);
        const blockfp8_config_t chosen = c;
        ASSERT_EQ(check_tiled_config(c, m, n, k, d), BLOCKFP8_SUCCESS) << m << " " << n << " " << k;
        EXPECT_EQ(c.weight_rows, chosen.weight_rows);
        EXPECT_EQ(c.stages, chosen.stages);
        EXPECT_LE(tiled_smem_bytes(c.weight_rows, c.stages), d.smem_per_block_optin);
      }
}

}  // namespace

namespace {

// The cluster of the best unsplit configuration.
TiledCluster chosen_cluster(int64_t m, int64_t n, const DeviceInfo& d) {
  const blockfp8_config_t c = choose_tiled_config(m, n, 7168, d, /*allow_split=*/false);
  return {c.cluster_m, c.cluster_n};
}

}  // namespace

TEST(DispatchTiled, ClusterShapes) {
  const DeviceInfo d = h200();
  for (auto [cm, cn] : {std::pair{1, 1}, std::pair{2, 1}, std::pair{1, 2}, std::pair{1, 4}, std::pair{2, 2}, std::pair{2, 4}})
    EXPECT_TRUE(tiled_cluster_supported({cm, cn}, d)) << cm << "x" << cn;
  for (auto [cm, cn] : {std::pair{4, 2}, std::pair{4, 1}, std::pair{1, 3}, std::pair{0, 1}, std::pair{1, 8}, std::pair{2, 3}})
    EXPECT_FALSE(tiled_cluster_supported({cm, cn}, d)) << cm << "x" << cn;
  DeviceInfo no_clusters = d;
  for (int& c : no_clusters.max_clusters) c = 0;
  no_clusters.max_clusters[1] = 132;
  EXPECT_FALSE(tiled_cluster_supported({2, 1}, no_clusters));
  EXPECT_TRUE(tiled_cluster_supported({1, 1}, no_clusters));
  // Without clusters the dispatcher runs single CTAs, and a forced pair is refused.
  blockfp8_config_t c = choose_tiled_config(4096, 2112, 7168, no_clusters);
  EXPECT_EQ(c.cluster_m * c.cluster_n, 1);
  blockfp8_config_t pair = tiled(128);
  pair.cluster_m = 2;
  EXPECT_EQ(check_tiled_config(pair, 4096, 2112, 7168, no_clusters), BLOCKFP8_ERROR_INVALID_CONFIG);

  // Rounds: 2112 x M = 4096 in 192-row tiles is 32 x 11 tiles; pairs along M make 176 units over 66
  // pairs (3 rounds), single CTAs 352 tiles over 132 SMs (3 rounds).
  EXPECT_EQ(tiled_rounds(4096, 2112, 192, {2, 1}, d), 3);
  EXPECT_EQ(tiled_rounds(4096, 2112, 192, {1, 1}, d), 3);
  // Three token tiles: a pair along M spends a CTA past M on every weight tile (4 token tiles' worth);
  // along N the pairs share the token tile instead. 7168 x 16384 at M = 384 took 166 us in pairs along
  // M and 88 us in pairs along N (s9 call 3).
  EXPECT_EQ(tiled_rounds(384, 7168, 192, {2, 1}, d), 2);  // 2 x 38 units over 66 pairs
  EXPECT_EQ(tiled_rounds(384, 7168, 192, {1, 2}, d), 1);  // 3 x 19 units
  EXPECT_EQ(tiled_rounds(384, 9216, 144, {2, 1}, d), 2);  // 128 units over 66 pairs
  EXPECT_EQ(tiled_rounds(384, 9216, 144, {1, 2}, d), 2);  // 96 units
}

TEST(DispatchTiled, ClusterChoice) {
  const DeviceInfo d = h200();
  // One token tile: pairs along N share it.
  for (int64_t m : {65, 100, 128}) EXPECT_EQ(chosen_cluster(m, 7168, d).cta_n, 2) << m;
  // An even number of token tiles: pairs along M share the weight tile.
  for (int64_t m : {256, 512, 1024, 4096, 8192})
    for (int64_t n : {2112, 7168, 9216, 24576, 36864}) EXPECT_EQ(chosen_cluster(m, n, d).cta_m, 2) << m << " " << n;
  // Three or five: single CTAs, where pairs would run a CTA past M in every pair (7168 x 16384 at
  // M = 384: 90 us against 165, s9 call 7).
  for (int64_t m : {384, 640})
    for (int64_t n : {7168, 9216, 24576, 36864}) {
      const TiledCluster c = chosen_cluster(m, n, d);
      EXPECT_EQ(c.cta_m * c.cta_n, 1) << m << " " << n;
    }
  // A forced width with the cluster left open takes that width's best cluster; a forced side keeps it.
  // {m, forced cluster_m, forced cluster_n} -> the cluster check_tiled_config settles on (144 rows).
  struct Case {
    int64_t m;
    int cm, cn, want_m, want_n;
  };
  for (const Case& k : {Case{100, 0, 0, 1, 2}, Case{100, 0, 1, 1, 1}, Case{4096, 2, 0, 2, 1}, Case{4096, 0, 0, 2, 1},
                        Case{4096, 1, 0, 1, 1}, Case{4096, 0, 4, 1, 4}}) {
    blockfp8_config_t f = tiled(144);
    f.cluster_m = k.cm, f.cluster_n = k.cn;
    ASSERT_EQ(check_tiled_config(f, k.m, 2112, 7168, d), BLOCKFP8_SUCCESS) << k.m << " " << k.cm << "x" << k.cn;
    EXPECT_EQ(f.cluster_m, k.want_m) << k.m << " " << k.cm << "x" << k.cn;
    EXPECT_EQ(f.cluster_n, k.want_n) << k.m << " " << k.cm << "x" << k.cn;
  }
  blockfp8_config_t c;
  // Bad forced clusters, and clusters forced on the other kernels. (2 x 2 and 2 x 4 only at 128 rows, unsplit.)
  for (auto [cm, cn] : {std::pair{2, 2}, std::pair{2, 4}, std::pair{4, 1}, std::pair{1, 3}, std::pair{-1, 1}, std::pair{1, -2}}) {
    c = tiled(144);
    c.cluster_m = cm, c.cluster_n = cn;
    EXPECT_EQ(check_config(c, 4096, 2112, 7168, d), BLOCKFP8_ERROR_INVALID_CONFIG) << cm << "x" << cn;
  }
  for (auto [cm, cn] : {std::pair{2, 2}, std::pair{2, 4}}) {
    c = tiled(128);
    c.cluster_m = cm, c.cluster_n = cn;
    EXPECT_EQ(check_config(c, 256, 7168, 2048, d), BLOCKFP8_SUCCESS) << cm << "x" << cn;
    c.split_k = 2;
    EXPECT_EQ(check_config(c, 256, 7168, 2048, d), BLOCKFP8_ERROR_INVALID_CONFIG) << cm << "x" << cn << " split 2";
  }
  // The dispatcher takes 2 x 4 over 128-token tiles only where two token tiles run from kTiled2dMinTokens, in
  // place of the 2 x 1 pairs of 128 x 128 tiles, in one round of clusters of 8 (kTiled2dMinTokens); over
  // 256-token tiles up to kTiled2dWideMaxTokens, in place of their 2 x 1 pairs where it takes no more rounds.
  for (int64_t m : {64, 128, 257, 768, 4096}) {
    const blockfp8_config_t a = choose_tiled_config(m, 7168, 2048, d);
    EXPECT_FALSE(a.cluster_m > 1 && a.cluster_n > 1) << m;
  }
  for (int64_t m : {kTiled2dMinTokens, int64_t(192), int64_t(224), int64_t(256)})
    for (int64_t k : {512, 2048, 18432}) {
      const blockfp8_config_t a = choose_tiled_config(m, 7168, k, d);
      EXPECT_EQ(a.cluster_m * 10 + a.cluster_n, 24) << m << " " << k;
      EXPECT_EQ(a.weight_rows, kTiled2dClusterRows) << m << " " << k;
      blockfp8_config_t forced = a;
      EXPECT_EQ(check_tiled_config(forced, m, 7168, k, d), BLOCKFP8_SUCCESS) << m << " " << k;
    }
  for (int64_t m : {int64_t(512), kTiled2dWideMaxTokens})
    for (int64_t k : {2048, 18432}) {
      const blockfp8_config_t a = choose_tiled_config(m, 7168, k, d);
      EXPECT_EQ(a.token_tile, kTiledWideTokenTile) << m << " " << k;
      EXPECT_EQ(a.cluster_m * 10 + a.cluster_n, 24) << m << " " << k;
      blockfp8_config_t forced = a;
      EXPECT_EQ(check_tiled_config(forced, m, 7168, k, d), BLOCKFP8_SUCCESS) << m << " " << k;
    }
  // 4096 x 7168 at M = 1024: the pairs' 64 units fit one round, 16 clusters of 8 on 15 slots do not.
  {
    const blockfp8_config_t a = choose_tiled_config(1024, 4096, 7168, d);
    EXPECT_EQ(a.token_tile, kTiledWideTokenTile);
    EXPECT_EQ(a.cluster_m * 10 + a.cluster_n, 21);
  }
  // Not where the columns of four tiles leave one partial (7040 rows: 55 tiles), nor where 2 x 4 clusters
  // would take more than one round (the H200 holds 15 of 8: at most 60 tiles, 7680 rows).
  for (int64_t n : {7040, 8192}) {
    const blockfp8_config_t a = choose_tiled_config(256, n, 2048, d);
    EXPECT_FALSE(a.cluster_m > 1 && a.cluster_n > 1) << n;
  }
  blockfp8_config_t s{};
  s.kernel = BLOCKFP8_KERNEL_SWAPAB_SPLITK, s.token_tile = 8, s.split_k = 1, s.cluster_m = 2;
  EXPECT_EQ(check_config(s, 4, 2112, 7168, d), BLOCKFP8_ERROR_INVALID_CONFIG);
  s.kernel = BLOCKFP8_KERNEL_SIMT;
  EXPECT_EQ(check_config(s, 4, 2112, 7168, d), BLOCKFP8_ERROR_INVALID_CONFIG);
}

TEST(DispatchTiled, SplitKRules) {
  const DeviceInfo d = h200();
  auto split = [](int rows, int k_split, int stages = 0, int cm = 0, int cn = 0) {
    blockfp8_config_t c = tiled(rows, stages);
    c.split_k = k_split, c.cluster_m = cm, c.cluster_n = cn;
    return c;
  };
  // 576 x 7168 at M = 512: 4 x 9 tiles of 64 rows fill 36 of 132 SMs; three ranks each fill 108.
  blockfp8_config_t c = split(64, 3);
  ASSERT_EQ(check_tiled_config(c, 512, 576, 7168, d), BLOCKFP8_SUCCESS);
  EXPECT_EQ(c.cluster_m, 1);
  EXPECT_EQ(c.cluster_n, 1);
  EXPECT_TRUE(tiled_split_fits(512, 576, 7168, 64, 3, c.stages, d));
  // Refused: more units than clusters of that size fit (every cluster is resident at once), a split
  // above the k-blocks or the maximum, a multicast cluster with it, a ring too small for the partial.
  c = split(64, 3);
  EXPECT_EQ(check_tiled_config(c, 4096, 7168, 7168, d), BLOCKFP8_ERROR_INVALID_CONFIG);
  c = split(64, 3);
  EXPECT_EQ(check_tiled_config(c, 512, 576, 256, d), BLOCKFP8_ERROR_INVALID_CONFIG);  // 2 k-blocks
  c = split(64, kTiledMaxSplitK + 1);
  EXPECT_EQ(check_tiled_config(c, 512, 576, 7168, d), BLOCKFP8_ERROR_INVALID_CONFIG);
  c = split(64, -1);
  EXPECT_EQ(check_tiled_config(c, 512, 576, 7168, d), BLOCKFP8_ERROR_INVALID_CONFIG);
  c = split(64, 2, 0, 2, 1);
  EXPECT_EQ(check_tiled_config(c, 512, 576, 7168, d), BLOCKFP8_ERROR_INVALID_CONFIG);
  c = split(64, 2, 0, 1, 2);
  EXPECT_EQ(check_tiled_config(c, 512, 576, 7168, d), BLOCKFP8_ERROR_INVALID_CONFIG);
  EXPECT_GT(tiled_partial_bytes(192), 2 * tiled_stage_bytes(192));
  c = split(192, 2, 2);
  EXPECT_EQ(check_tiled_config(c, 512, 576, 7168, d), BLOCKFP8_ERROR_INVALID_CONFIG);
  c = split(192, 2);
  ASSERT_EQ(check_tiled_config(c, 512, 576, 7168, d), BLOCKFP8_SUCCESS);
  EXPECT_GE(int64_t(c.stages) * tiled_stage_bytes(192), tiled_partial_bytes(192));
  // The dispatcher splits K where few tiles leave most SMs idle, and never where the tiles fill it.
  const blockfp8_config_t few = choose_tiled_config(512, 576, 7168, d);
  EXPECT_GT(few.split_k, 1);
  blockfp8_config_t chosen = few;
  EXPECT_EQ(check_tiled_config(chosen, 512, 576, 7168, d), BLOCKFP8_SUCCESS);
  EXPECT_EQ(chosen.split_k, few.split_k);
  for (int64_t m : {1024, 4096, 8192}) EXPECT_EQ(choose_tiled_config(m, 7168, 7168, d).split_k, 1) << m;
  // One token tile, above 64 tokens: long K on wide weights splits, short K does not (s10 call 16).
  for (int64_t m : {96, 128}) {
    EXPECT_GT(choose_tiled_config(m, 4608, 7168, d).split_k, 1) << m;
    EXPECT_GT(choose_tiled_config(m, 7168, 16384, d).split_k, 1) << m;
    EXPECT_EQ(choose_tiled_config(m, 7168, 2048, d).split_k, 1) << m;
  }
  // Up to two token tiles a split of 8 (576x7168: 96 rows, 12 clusters); beyond, at most
  // kTiledMaxSplitManyTokenTiles (s33 call 1: 64 rows split 4 at M = 288-384, where 128 rows split 8 fits).
  EXPECT_EQ(choose_tiled_config(256, 576, 7168, d).split_k, 8);
  for (int64_t m : {257, 320, 384, 448, 512, 640}) {
    const blockfp8_config_t many = choose_tiled_config(m, 576, 7168, d);
    EXPECT_GT(many.split_k, 1) << m;
    EXPECT_LE(many.split_k, kTiledMaxSplitManyTokenTiles) << m;
  }
  EXPECT_TRUE(tiled_split_fits(320, 576, 7168, 128, 8, tiled_max_stages(128, d), d));
  EXPECT_EQ(choose_tiled_config(320, 576, 7168, d).weight_rows, 64);
  // The tiled chooser splits from kTiledSplitMinTokens + 1 = 33 tokens (s26), not at 32 or fewer.
  EXPECT_GT(choose_tiled_config(64, 7168, 16384, d).split_k, 1);
  EXPECT_GT(choose_tiled_config(33, 9216, 7168, d).split_k, 1);
  EXPECT_EQ(choose_tiled_config(32, 7168, 16384, d).split_k, 1);
  EXPECT_EQ(choose_tiled_config(32, 9216, 7168, d).split_k, 1);
  // Every split the dispatcher picks is one check_tiled_config accepts.
  for (int64_t m : {33, 48, 64, 65, 96, 128, 256, 384, 512, 1024})
    for (int64_t n : {576, 1536, 2112, 3072, 4096, 4608, 7168, 9216})
      for (int64_t k : {512, 1536, 7168, 16384}) {
        blockfp8_config_t p = choose_tiled_config(m, n, k, d);
        const int s = p.split_k;
        ASSERT_EQ(check_tiled_config(p, m, n, k, d), BLOCKFP8_SUCCESS) << m << " " << n << " " << k;
        EXPECT_EQ(p.split_k, s);
      }
}

// Which route the scales take: TMA for 16-byte aligned column-major a_scales, 16-byte row loads for
// 16-byte aligned row-major scales with K/128 a multiple of 4 (unsplit), the four-byte copies otherwise.
// Only the addresses' alignment matters here, so the pointers are made-up values.
TEST(DispatchTiled, ScaleRoutes) {
  const auto at = [](uintptr_t a) { return reinterpret_cast<const float*>(a); };
  Problem p;
  p.m = 300, p.n = 2112, p.k = 7168;  // 56 k-blocks, 17 b_scale rows
  p.a_scale = at(0x10000), p.b_scale = at(0x20000);
  p.a_scale_stride_m = 56, p.a_scale_stride_k = 1, p.b_scale_stride_n = 56, p.b_scale_stride_k = 1;
  EXPECT_EQ(tiled_scale_route(p, false), kScalesRows);
  EXPECT_EQ(tiled_scale_route(p, true), kScalesCopied);  // the split-K kernel keeps the copies
  Problem q = p;
  q.a_scale = at(0x10004);  // base off 16 bytes
  EXPECT_EQ(tiled_scale_route(q, false), kScalesCopied);
  q = p, q.b_scale_stride_n = 57;  // b rows off 16 bytes
  EXPECT_EQ(tiled_scale_route(q, false), kScalesCopied);
  q = p, q.k = 18 * 128, q.a_scale_stride_m = q.b_scale_stride_n = 20;  // 18 k-blocks: groups of 4 do not tile K
  EXPECT_EQ(tiled_scale_route(q, false), kScalesCopied);

  // Column-major: stride_k of M (300, 16-byte columns) or M rounded up to 4.
  Problem c = p;
  c.a_scale_stride_m = 1, c.a_scale_stride_k = 300;
  EXPECT_EQ(tiled_scale_route(c, false), kScalesTmaA);
  EXPECT_EQ(tiled_scale_route(c, true), kScalesTmaA);  // the split-K kernel takes TMA too
  EXPECT_EQ(tiled_scale_route(c, false, /*tma=*/false), kScalesCopied);
  c.m = 299, c.a_scale_stride_k = tiled_aligned_scale_ld(299);
  EXPECT_EQ(c.a_scale_stride_k, 300);
  EXPECT_EQ(tiled_scale_route(c, false), kScalesTmaA);
  c.a_scale_stride_k = 299;  // columns off 16 bytes
  EXPECT_EQ(tiled_scale_route(c, false), kScalesCopied);
  c = p, c.k = 128, c.a_scale_stride_m = 1, c.a_scale_stride_k = 0;  // one k-block: no column stride
  EXPECT_EQ(tiled_scale_map_ld(c), 300);
  EXPECT_EQ(tiled_scale_route(c, false), kScalesTmaA);
}
