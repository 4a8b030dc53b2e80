// The dispatcher's rules, on a described device (no GPU needed).
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "dispatch.h"
#include "dispatch_tiled.h"

using namespace blockfp8::detail;

namespace {

// DeviceInfo's defaults describe an H200: 132 SMs, 227 KB of shared memory per CTA, and the cluster
// capacities of the decode kernel (32 clusters of 4, not 33).
DeviceInfo h200() { return DeviceInfo{}; }

TEST(Dispatch, TokenTileIsTheSmallestThatHoldsM) {
  const DeviceInfo d = h200();
  EXPECT_EQ(choose_config(1, 2112, 7168, d).token_tile, 8);
  EXPECT_EQ(choose_config(8, 2112, 7168, d).token_tile, 8);
  EXPECT_EQ(choose_config(9, 2112, 7168, d).token_tile, 16);
  EXPECT_EQ(choose_config(33, 2112, 7168, d).token_tile, 64);
  EXPECT_EQ(choose_config(128, 4096, 7168, d).token_tile, 128);  // (2112 rows: two 64-token tiles)
  EXPECT_EQ(choose_config(4096, 2112, 7168, d).token_tile, 128);
}

// 64-row tiles over long K slices stream two k-blocks a stage (measured 0.95x the time of one at
// 2112x7168, M <= 32, in two runs), except 32-token tiles over slices up to 28 k-blocks and 56-row
// 16-token tiles (one k-block 0.96-0.98x, s28 call 6); short slices and short tiles keep ~8 KB boxes.
TEST(Dispatch, StageKBlocksFollowTheMeasuredBoxSize) {
  const DeviceInfo d = h200();
  for (int64_t m : {1, 16, 32}) {
    blockfp8_config_t c = choose_swapab_config(m, 2112, 7168, d);
    ASSERT_EQ(check_config(c, m, 2112, 7168, d), BLOCKFP8_SUCCESS) << m;
    ASSERT_EQ(c.split_k, 3) << m;  // a 19-k-block slice
    EXPECT_EQ(c.stage_kblocks, m == 32 ? 1 : 2) << m;
  }
  EXPECT_EQ(swapab_default_stage_kblocks(32, 64, 2, 28, false, d), 1);  // 4096x7168, split 2
  EXPECT_EQ(swapab_default_stage_kblocks(32, 64, 2, 56, false, d), 2);  // unsplit long K: not measured
  EXPECT_EQ(swapab_default_stage_kblocks(32, 64, 2, 16, false, d), 2);  // 7168x2048: 1.006-1.013x with one
  EXPECT_EQ(swapab_default_stage_kblocks(16, 56, 2, 56, false, d), 1);  // 7168x7168-like, 56-row tiles
  EXPECT_EQ(swapab_default_stage_kblocks(32, 56, 2, 56, false, d), 2);
  EXPECT_EQ(swapab_default_stage_kblocks(8, 64, 2, 7, false, d), 1);   // 576x7168, split 8: a 7-k-block slice
  EXPECT_EQ(swapab_default_stage_kblocks(8, 64, 2, 15, false, d), 1);
  EXPECT_EQ(swapab_default_stage_kblocks(8, 64, 2, 16, false, d), 2);
  EXPECT_EQ(swapab_default_stage_kblocks(8, 32, 2, 56, false, d), 2);  // 8 KB boxes for short tiles
  EXPECT_EQ(swapab_default_stage_kblocks(8, 16, 2, 56, false, d), 4);
  EXPECT_EQ(swapab_default_stage_kblocks(8, 64, 2, 1, false, d), 1);   // never more than the slice
  // Not where a split walks several rounds of tiles, nor where the wide boxes leave a shallow ring.
  EXPECT_EQ(swapab_default_stage_kblocks(8, 64, 2, 19, true, d), 1);
  EXPECT_EQ(swapab_default_stage_kblocks(64, 64, 2, 64, false, d), 1);  // 7168x8192 M = 64: 4 stages of 2
  EXPECT_TRUE(swapab_split_rounds(1, 4608, 8, 64, 3, d));    // 72 tiles, 44 clusters of 3
  EXPECT_FALSE(swapab_split_rounds(1, 2112, 8, 64, 3, d));   // 33 tiles
  EXPECT_FALSE(swapab_split_rounds(1, 9216, 8, 64, 1, d));   // unsplit: not a split's rounds
  EXPECT_TRUE(swapab_split_rounds(1, 12288, 8, 64, 2, d));   // 192 tiles, 66 clusters of 2
}

TEST(Dispatch, PrimaryShapeGetsTheMeasuredBest) {
  const DeviceInfo d = h200();
  // bench/results (2026-11-29, forced paths at N=2112, K=7168, M=1): 64-row tiles split 3 (99 CTAs,
  // 19 k-blocks each) 8.5 us; 32-row split 2 (132 CTAs, 28) 9.7 us; 16-row unsplit (132, 56) 13.5 us;
  // 64-row split 6 (two rounds of 22 clusters) 12.4 us. The math of a k-block, not its bytes, sets
  // the pace of short tiles, so fewer, fuller k-blocks win.
  for (int64_t m : {1, 4, 8, 16}) {
    const blockfp8_config_t c = choose_swapab_config(m, 2112, 7168, d);
    EXPECT_EQ(c.kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK);
    EXPECT_EQ(c.weight_rows, 64) << m;
    EXPECT_EQ(c.split_k, 3) << m;
  }
  // Small weights: every chosen config runs in a single round of clusters.
  for (int64_t n : {576, 2112}) {
    const blockfp8_config_t s = choose_swapab_config(1, n, 7168, d);
    const int64_t tiles = (n + s.weight_rows - 1) / s.weight_rows;
    EXPECT_LE(tiles, d.max_clusters[s.split_k]) << n;
  }
  // Never more splits than k-blocks.
  EXPECT_EQ(choose_config(1, 64, 128, d).split_k, 1);
  EXPECT_LE(choose_config(1, 64, 256, d).split_k, 2);
}

// The warp-MMA kernel's staggered walk over a K slice is a permutation: across its warps, every strip
// takes every k-block of the slice exactly once, whatever its start, and the starts spread over the
// slice (strip 0 at 0, each later strip no earlier than the one before).
TEST(Dispatch, WarpMmaWalkTakesEveryKBlockOnce) {
  for (int kb_count : {1, 2, 3, 4, 7, 12, 19, 28, 56, 57, 128, 144})
    for (int warps : {4, 8, 12, 16})
      for (int64_t strips : {1, 7, 36, 132}) {
        int prev = 0;
        for (int64_t s = 0; s < strips; ++s) {
          const int rot = warpmma_walk_start(s, strips, kb_count);
          ASSERT_GE(rot, prev);
          ASSERT_LT(rot, kb_count);
          if (s == 0) ASSERT_EQ(rot, 0);
          prev = rot;
          std::vector<int> seen(size_t(kb_count), 0);
          for (int w = 0; w < warps; ++w)
            for (int i = 0; i < warpmma_warp_kblocks(w, warps, kb_count); ++i) {
              const int kb = warpmma_walk_kblock(w, warps, i, rot, kb_count);
              ASSERT_GE(kb, 0);
              ASSERT_LT(kb, kb_count);
              ++seen[size_t(kb)];
            }
          for (int kb = 0; kb < kb_count; ++kb)
            ASSERT_EQ(seen[size_t(kb)], 1) << "k-block " << kb << " of " << kb_count << ", " << warps << " warps, strip "
                                           << s << " of " << strips;
        }
      }
}

// The decode kernel's K slices (swapab_slice_begin): they tile [0, kb_total) in rank order; with no
// lead they are the pulled sum's even shares (so the owner's sum adds the same partials: C bitwise
// the same), with one rank 0 takes exactly `lead` more and no other rank gains; swapab_kb_slice is
// the longest.
TEST(Dispatch, SplitKSlicesTileK) {
  for (int kb_total : {2, 4, 12, 19, 56, 57, 128, 144})
    for (int split = 1; split <= kMaxSplitK; ++split)
      for (int lead : {0, 1, 2, 4}) {
        if (split == 1 && lead > 0) continue;
        if (kb_total / split <= lead) continue;  // the launcher needs every rank to keep k-blocks
        int longest = 0;
        ASSERT_EQ(swapab_slice_begin(kb_total, split, lead, 0), 0);
        ASSERT_EQ(swapab_slice_begin(kb_total, split, lead, split), kb_total);
        for (int r = 0; r < split; ++r) {
          const int b = swapab_slice_begin(kb_total, split, lead, r);
          const int e = swapab_slice_begin(kb_total, split, lead, r + 1);
          const int even = (r + 1) * kb_total / split - r * kb_total / split;
          ASSERT_GE(e, b) << kb_total << " " << split << " " << lead << " rank " << r;
          if (lead == 0) ASSERT_EQ(b, r * kb_total / split);
          if (r == 0) ASSERT_EQ(e - b, even + lead);
          if (r > 0) ASSERT_LE(e - b, even);
          longest = std::max(longest, e - b);
        }
        ASSERT_EQ(swapab_kb_slice(kb_total, split, lead), longest) << kb_total << " " << split << " " << lead;
      }
  // The inbox (ranks 1..split-1, 4 bytes a row and token) and its barrier fit rank 0's two
  // reduction buffers exactly where swapab_owner_sum_fits says so.
  for (int rows : kSwapabWeightRows)
    for (int split = 1; split <= kMaxSplitK; ++split)
      for (int tokens : {8, 16}) {
        const bool fits = (split - 1) * rows * tokens * 4 + 8 <= 2 * tokens * kSwapabRedPitch * 4;
        if (swapab_owner_sum_fits(split, rows)) ASSERT_TRUE(fits) << rows << " rows, split " << split;
      }
  EXPECT_TRUE(swapab_owner_sum_fits(3, 64));  // the primary shape's split
  EXPECT_FALSE(swapab_owner_sum_fits(1, 64));
}

// Tail token boxes: only the live rows of a lone 64- or 128-token tile on one-k-block stages.
TEST(Dispatch, TokenBoxRows) {
  EXPECT_EQ(swapab_token_box_rows(64, 33, 1), 33);
  EXPECT_EQ(swapab_token_box_rows(64, 1, 1), 1);
  EXPECT_EQ(swapab_token_box_rows(128, 70, 1), 70);
  EXPECT_EQ(swapab_token_box_rows(64, 64, 1), 64);    // every row live
  EXPECT_EQ(swapab_token_box_rows(128, 130, 1), 128);  // two token tiles: full boxes
  EXPECT_EQ(swapab_token_box_rows(64, 33, 2), 64);    // a 3-D box would pack k-blocks 33 rows apart
  EXPECT_EQ(swapab_token_box_rows(32, 20, 1), 32);    // narrower tiles keep full boxes
  EXPECT_EQ(swapab_token_box_rows(8, 1, 1), 8);
}

// The a_scale box starts at a 16-byte aligned k-block and spans every rank's slice from there.
TEST(Dispatch, ScaleBoxKblocks) {
  EXPECT_EQ(swapab_scale_box_kb(128, 1), 128);
  EXPECT_EQ(swapab_scale_box_kb(72, 1), 72);
  EXPECT_EQ(swapab_scale_box_kb(57, 1), 60);
  EXPECT_EQ(swapab_scale_box_kb(128, 2), 64);  // begins 0, 64: aligned
  EXPECT_EQ(swapab_scale_box_kb(56, 3), 24);   // begins 0, 18, 37: rank 1 spans k-blocks 16-36 (s20 call 1)
  EXPECT_EQ(swapab_scale_box_kb(128, 3), 48);  // begins 0, 42, 85: rank 1 spans k-blocks 40-84
  for (int kb = 1; kb <= 160; ++kb)
    for (int split = 1; split <= 8; ++split) {
      const int box = swapab_scale_box_kb(kb, split);
      EXPECT_EQ(box % 4, 0);
      for (int r = 0; r < split; ++r) {
        const int begin = swapab_slice_begin(kb, split, 0, r), end = swapab_slice_begin(kb, split, 0, r + 1);
        EXPECT_LE(end - begin / 4 * 4, box) << kb << " " << split << " " << r;
      }
      EXPECT_LT(box, swapab_kb_slice(kb, split) + 7);
    }
}

// The decode kernel's alternating warpgroups: walk a CTA's ring over several tiles the way the kernel
// does (stage q of a tile at ring position tile_start + q, the warpgroup by the position's parity; each
// warpgroup's first stage of a tile skips one where the tile starts on the other's parity) and check
// that every wait's parity is the count of earlier uses of that warpgroup's barrier of that slot.
TEST(Dispatch, AlternatingRingParity) {
  for (int stages = 1; stages <= kSwapabMaxStages; ++stages)
    for (int per_tile : {1, 2, 3, 5, 7, 8, 19, 56}) {
      std::vector<int> uses(2 * stages, 0);
      uint32_t start = 0;  // the tile's first ring position
      for (int tile = 0; tile < 5; ++tile, start += per_tile)
        for (int wg = 0; wg < 2; ++wg) {
          const uint32_t lap0 = start / stages;
          const int slot0 = int(start % stages);
          const int skip = (wg ^ swapab_ring_warpgroup(lap0, slot0, stages)) & 1;
          for (uint32_t p = start + skip; p < start + per_tile; p += 2) {
            const uint32_t lap = p / stages;
            const int slot = int(p % stages);
            ASSERT_EQ(swapab_ring_warpgroup(lap, slot, stages), wg) << stages << " " << p;
            ASSERT_EQ(swapab_alternate_wait_parity(lap, stages), uint32_t(uses[2 * slot + wg] & 1))
                << "stages " << stages << " per tile " << per_tile << " position " << p;
            ++uses[2 * slot + wg];
          }
        }
    }
}

TEST(Dispatch, ConstWeightsStreamEarlyUpTo32Tokens) {
  for (int tn : kSwapabTokenTiles) {
    EXPECT_FALSE(swapab_streams_weight_early(0, tn)) << tn;
    EXPECT_FALSE(swapab_streams_weight_early(BLOCKFP8_FLAG_BATCH_INVARIANT, tn)) << tn;
    EXPECT_EQ(swapab_streams_weight_early(BLOCKFP8_FLAG_CONST_WEIGHTS, tn), tn <= 32) << tn;
    EXPECT_EQ(swapab_streams_weight_early(BLOCKFP8_FLAG_CONST_WEIGHTS | BLOCKFP8_FLAG_BATCH_INVARIANT, tn), tn <= 32);
  }
}

// Where the a_scale box lands: the reduction buffers short of their barrier, else the next tile's scale
// buffer (128-byte aligned, inside the scales region), else nowhere.
TEST(Dispatch, ScaleBoxPlace) {
  EXPECT_EQ(swapab_scale_box_at(32, 128, 128), 0);  // 7168x16384 split 1
  EXPECT_EQ(swapab_scale_box_at(64, 56, 56), 0);    // 12288x7168
  const int red32 = 2 * 32 * kSwapabRedPitch;
  EXPECT_EQ(swapab_scale_box_at(32, 144, 144), (red32 + 144 * 36 + 31) / 32 * 32);  // 7168x18432 split 1
  EXPECT_EQ(swapab_scale_box_at(128, 140, 148), -1);  // a split slice off a 16-byte boundary: too wide for both
  for (int tn : {32, 64, 128})
    for (int kb = 1; kb <= 256; ++kb) {
      const int box = (kb + 3) / 4 * 4, at = swapab_scale_box_at(tn, kb, box);
      const int red = 2 * tn * kSwapabRedPitch, end = red + 2 * kb * (tn + 4);
      if (at < 0) continue;
      EXPECT_EQ(at % 32, 0);
      if (at == 0) EXPECT_LE(tn * box, red - 2) << tn << " " << kb;  // clear of the barrier
      else EXPECT_GE(at, red + kb * (tn + 4)) << tn << " " << kb;    // clear of the first tile's scales
      EXPECT_LE(at + tn * box, end) << tn << " " << kb;
    }
}

// Where the owner's sum may run (the device's part, one round of clusters, is the launcher's).
TEST(Dispatch, OwnerSumRules) {
  auto cfg = [](int tokens, int rows, int split, int kblocks) {
    blockfp8_config_t c{};
    c.kernel = BLOCKFP8_KERNEL_SWAPAB_SPLITK, c.token_tile = tokens, c.weight_rows = rows;
    c.split_k = split, c.stage_kblocks = kblocks, c.warpgroups = 2;
    return c;
  };
  EXPECT_TRUE(swapab_owner_sum_ok(cfg(16, 64, 3, 2), 56, 0));  // 2112x7168 at M = 9-16
  EXPECT_TRUE(swapab_owner_sum_ok(cfg(8, 64, 3, 1), 56, 0));
  EXPECT_FALSE(swapab_owner_sum_ok(cfg(32, 64, 3, 2), 56, 0));  // 32 tokens: measured slower
  EXPECT_FALSE(swapab_owner_sum_ok(cfg(16, 64, 4, 2), 56, 0));  // three ranks of 64 rows overfill the inbox
  EXPECT_TRUE(swapab_owner_sum_ok(cfg(16, 32, 5, 1), 56, 0));
  EXPECT_FALSE(swapab_owner_sum_ok(cfg(16, 64, 1, 2), 56, 0));  // no split, nothing to sum
  EXPECT_FALSE(swapab_owner_sum_ok(cfg(16, 64, 3, 2), 56, -1));  // BLOCKFP8_DECODE_LEAD < 0: pulled sum
  blockfp8_config_t one = cfg(16, 64, 3, 2);
  one.warpgroups = 1;
  EXPECT_FALSE(swapab_owner_sum_ok(one, 56, 0));
  blockfp8_config_t inv = cfg(16, 64, 3, 2);
  inv.flags = BLOCKFP8_FLAG_BATCH_INVARIANT;
  EXPECT_FALSE(swapab_owner_sum_ok(inv, 56, 0));
  // Every rank keeps a stage for each warpgroup: 2 x 2 k-blocks. 3 ranks of 12 k-blocks: 4 each.
  EXPECT_TRUE(swapab_owner_sum_ok(cfg(16, 64, 3, 2), 12, 0));
  EXPECT_FALSE(swapab_owner_sum_ok(cfg(16, 64, 3, 2), 11, 0));
  EXPECT_FALSE(swapab_owner_sum_ok(cfg(16, 64, 3, 2), 12, 2));  // the lead leaves ranks 1-2 three each
}

// The warp-MMA kernel's three cases (dispatch.h): one round of strips at M <= 8 (s11 call 2); too few
// strips of 16, K split over the largest cluster that keeps one round (576x7168: split 3); well over a
// round of strips of 32 at M <= 4, M <= 8 where K <= 1536 (s14 calls 4 and 6), except the two shapes
// measured slower by name and 4608x7168, just over one round (144 strips); 16-row strips on under three
// quarters of the SMs (1536x7168: 96) only up to kWarpMmaThinPartialRoundMaxM (s29 call 12). Nowhere at
// M > 8, nor where the tiled kernel takes short, very wide weights (32768x512 at every M; s25 calls 3, 9).
TEST(Dispatch, WarpMmaTakesWhereItMeasuredFaster) {
  const DeviceInfo d = h200();
  struct Want {
    int64_t n, k;
    int rows;      // 0: not the warp-MMA kernel
    int split;
    int64_t max_m;  // the largest M it takes
  };
  for (const Want w : {Want{2112, 7168, 16, 1, 8}, Want{1536, 7168, 16, 1, kWarpMmaThinPartialRoundMaxM},
                       Want{4096, 7168, 32, 1, 8}, Want{3072, 1536, 32, 1, 8}, Want{4096, 512, 32, 1, 8}, Want{576, 7168, 16, 3, 8},
                       Want{4608, 7168, 0, 0, 0}, Want{7168, 2048, 32, 1, 4}, Want{7168, 16384, 32, 1, 4},
                       Want{36864, 7168, 32, 1, 4}, Want{32768, 512, 0, 0, 0}, Want{16384, 512, 0, 0, 0},
                       Want{12288, 1536, 0, 0, 0}, Want{800, 7168, 16, 2, 8}}) {
    for (int64_t m : {1, 4, 5, 8, 9, 16}) {
      blockfp8_config_t c = choose_config(m, w.n, w.k, d);
      SCOPED_TRACE(std::to_string(m) + " x " + std::to_string(w.n) + " x " + std::to_string(w.k));
      ASSERT_EQ(check_config(c, m, w.n, w.k, d), BLOCKFP8_SUCCESS);
      if (w.rows == 0 || m > w.max_m) {
        EXPECT_NE(c.kernel, BLOCKFP8_KERNEL_WARP_MMA);
        continue;
      }
      EXPECT_EQ(c.kernel, BLOCKFP8_KERNEL_WARP_MMA);
      EXPECT_EQ(c.weight_rows, w.rows);
      EXPECT_EQ(c.split_k, w.split);
      const int64_t ctas = strip_ctas(w.n, c.weight_rows, c.split_k);
      if (ctas <= d.sm_count)  // one round: the launcher then keeps it at one CTA an SM
        EXPECT_GE(3 * ctas, 2 * d.sm_count);
      else  // many strips: well over a round, at few tokens
        EXPECT_TRUE(4 * ctas > 5 * d.sm_count && m <= (w.k <= kWarpMmaManyStripsShortK ? 8 : 4));
      EXPECT_EQ(c.stage_kblocks, w.rows == 32 || m >= kWarpMmaShortRingM ? 2 : 4);
    }
  }
}

TEST(Dispatch, CostModelRanksTheMeasuredCases) {
  const DeviceInfo d = h200();
  // Measured at 2ed7975 (1 tile per CTA, 64 rows): split 3 (one wave) beat split 4 (two waves).
  EXPECT_LT(swapab_cost_ns(1, 2112, 7168, 8, 64, 3, d), swapab_cost_ns(1, 2112, 7168, 8, 64, 4, d));
  // The weight at HBM speed is a floor no configuration beats.
  const double hbm = 2112.0 * 7168.0 / d.hbm_bytes_per_ns;
  for (int rows : kSwapabWeightRows)
    for (int s = 1; s <= kMaxSplitK; ++s) EXPECT_GE(swapab_cost_ns(1, 2112, 7168, 8, rows, s, d), hbm);
}

TEST(Dispatch, ChosenConfigsAreValidEverywhere) {
  const DeviceInfo d = h200();
  for (int64_t m : {1, 7, 8, 16, 32, 64, 200, 4096})
    for (int64_t n : {1, 7, 2112, 4097, 7168, 24576})
      for (int64_t k : {128, 512, 7168, 16384, 18432}) {
        blockfp8_config_t c = choose_config(m, n, k, d);
        ASSERT_EQ(check_config(c, m, n, k, d), BLOCKFP8_SUCCESS) << m << " " << n << " " << k;
        // Small M goes to a decode kernel, large M to the tiled one (its rules: test_dispatch_tiled.cpp).
        const bool tiled = tiled_wins(m, n, k, d);
        const bool warpmma = !tiled && choose_warpmma_config(m, n, k, d).kernel == BLOCKFP8_KERNEL_WARP_MMA;
        EXPECT_EQ(c.kernel, tiled     ? BLOCKFP8_KERNEL_TILED
                            : warpmma ? BLOCKFP8_KERNEL_WARP_MMA
                                      : BLOCKFP8_KERNEL_SWAPAB_SPLITK);
        if (c.kernel != BLOCKFP8_KERNEL_SWAPAB_SPLITK) continue;
        EXPECT_GE(c.stages, swapab_min_stages(c.token_tile, c.warpgroups));
        const int slice = swapab_kb_slice(k / 128, c.split_k);
        EXPECT_LE(swapab_smem_bytes(c.token_tile, c.weight_rows, c.stage_kblocks, c.stages, slice),
                  d.smem_per_block_optin);
        EXPECT_GE(c.stage_kblocks, 1);
        EXPECT_LE(c.stage_kblocks, std::min(slice, kSwapabMaxStageKBlocks));
        // The ring holds at most one and a half K slices (the current tile's and the next one's start).
        const int per_slice = (slice + c.stage_kblocks - 1) / c.stage_kblocks;
        EXPECT_TRUE(c.stages <= per_slice + per_slice / 2 ||
                    c.stages == swapab_min_stages(c.token_tile, c.warpgroups));
      }
}

TEST(Dispatch, StageRingBounds) {
  const DeviceInfo d = h200();
  // Two pipelined warpgroups each hold two stages: fewer would deadlock.
  EXPECT_EQ(swapab_min_stages(16, 2), 4);
  EXPECT_EQ(swapab_min_stages(32, 1), 2);
  // The widest tile on one warpgroup is not pipelined: one stage at a time (slow, but it cannot
  // deadlock). Two warpgroups split it by tokens and hold the same two stages.
  EXPECT_EQ(swapab_min_stages(128, 1), 1);
  EXPECT_EQ(swapab_min_stages(128, 2), 2);
  EXPECT_EQ(swapab_wg_tokens(128, 2), 64);
  EXPECT_EQ(swapab_wg_tokens(64, 2), 64);
  EXPECT_EQ(swapab_wg_tokens(128, 1), 128);
  blockfp8_config_t c{BLOCKFP8_KERNEL_SWAPAB_SPLITK, 16, 1, 2, 2};
  EXPECT_EQ(check_config(c, 4, 2112, 7168, d), BLOCKFP8_ERROR_INVALID_CONFIG);
  c.stages = 4;
  EXPECT_EQ(check_config(c, 4, 2112, 7168, d), BLOCKFP8_SUCCESS);
  c.stages = kSwapabMaxStages + 1;
  EXPECT_EQ(check_config(c, 4, 2112, 7168, d), BLOCKFP8_ERROR_INVALID_CONFIG);
  // A K slice whose scales fill shared memory leaves no room for a ring.
  blockfp8_config_t wide{BLOCKFP8_KERNEL_SWAPAB_SPLITK, 128, 1, 0, 1};
  EXPECT_EQ(check_config(wide, 128, 2112, int64_t(128) * 400, d), BLOCKFP8_ERROR_INVALID_CONFIG);
}

TEST(Dispatch, ForcedConfigRules) {
  const DeviceInfo d = h200();
  auto status = [&](blockfp8_config_t c) { return check_config(c, 4, 2112, 7168, d); };
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SWAPAB_SPLITK, 24, 1, 0, 0}), BLOCKFP8_ERROR_INVALID_CONFIG);  // token tile
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 9, 0, 0}), BLOCKFP8_ERROR_INVALID_CONFIG);   // split > 8
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 0, 0, 0}), BLOCKFP8_ERROR_INVALID_CONFIG);   // split < 1
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SWAPAB_SPLITK, 128, 1, 0, 2}), BLOCKFP8_SUCCESS);  // 2 wg at 128: split tokens
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 1, 0, 3}), BLOCKFP8_ERROR_INVALID_CONFIG);   // 3 wg
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 1, 0, 0, 44}), BLOCKFP8_ERROR_INVALID_CONFIG);  // rows
  // Heights that do not divide 128 (tiles across b_scale blocks): two warpgroups, up to 64 tokens.
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 1, 0, 0, 48}), BLOCKFP8_SUCCESS);
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SWAPAB_SPLITK, 64, 1, 0, 2, 56}), BLOCKFP8_SUCCESS);
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 1, 0, 1, 48}), BLOCKFP8_ERROR_INVALID_CONFIG);
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SWAPAB_SPLITK, 128, 1, 0, 2, 40}), BLOCKFP8_ERROR_INVALID_CONFIG);
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 1, 0, 0, 128}), BLOCKFP8_ERROR_INVALID_CONFIG);
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 1, 0, 0, 8}), BLOCKFP8_ERROR_INVALID_CONFIG);
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 1, 0, 0, 16}), BLOCKFP8_SUCCESS);
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 1, 0, 0, 16, 17}), BLOCKFP8_ERROR_INVALID_CONFIG);  // kblocks
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 1, 0, 0, 16, -1}), BLOCKFP8_ERROR_INVALID_CONFIG);
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 1, 0, 0, 16, 16}), BLOCKFP8_SUCCESS);
  EXPECT_EQ(status({99, 0, 0, 0, 0}), BLOCKFP8_ERROR_INVALID_CONFIG);
  EXPECT_EQ(status({BLOCKFP8_KERNEL_SIMT, 5, 5, 5, 5}), BLOCKFP8_SUCCESS);
  // A split the device cannot place as a cluster is refused.
  DeviceInfo no_clusters = d;
  no_clusters.max_clusters[8] = 0;
  blockfp8_config_t c{BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 8, 0, 0};
  EXPECT_EQ(check_config(c, 4, 2112, 7168, no_clusters), BLOCKFP8_ERROR_INVALID_CONFIG);
}

// Config fields: kernel, token_tile, split_k, stages, warpgroups, weight_rows, stage_kblocks.
TEST(Dispatch, ForcedWarpMmaConfigRules) {
  const DeviceInfo d = h200();
  auto status = [&](blockfp8_config_t c) { return check_config(c, 4, 2112, 7168, d); };
  constexpr int W = BLOCKFP8_KERNEL_WARP_MMA;
  EXPECT_EQ(status({W, 8, 1, 0, 2, 16, 8}), BLOCKFP8_SUCCESS);
  EXPECT_EQ(status({W, 32, 8, 0, 2, 32, 2}), BLOCKFP8_SUCCESS);
  EXPECT_EQ(status({W, 64, 1, 0, 2, 16, 1}), BLOCKFP8_ERROR_INVALID_CONFIG);  // token tile
  EXPECT_EQ(status({W, 8, 1, 0, 2, 64, 2}), BLOCKFP8_ERROR_INVALID_CONFIG);   // rows
  EXPECT_EQ(status({W, 8, 1, 0, 2, 16, 3}), BLOCKFP8_ERROR_INVALID_CONFIG);   // ring not instantiated
  EXPECT_EQ(status({W, 8, 1, 0, 4, 16, 8}), BLOCKFP8_ERROR_INVALID_CONFIG);   // 16 warps' rings: 442 KB
  EXPECT_EQ(status({W, 8, 1, 0, 4, 16, 4}), BLOCKFP8_SUCCESS);                // 221 KB
  EXPECT_EQ(status({W, 32, 1, 0, 4, 16, 2}), BLOCKFP8_ERROR_INVALID_CONFIG);  // 16 warps of 32 tokens
  EXPECT_EQ(status({W, 8, 1, 0, 5, 16, 4}), BLOCKFP8_ERROR_INVALID_CONFIG);   // 20 warps
  EXPECT_EQ(status({W, 8, 1, 0, -1, 16, 4}), BLOCKFP8_ERROR_INVALID_CONFIG);
  EXPECT_EQ(status({W, 8, 9, 0, 2, 16, 4}), BLOCKFP8_ERROR_INVALID_CONFIG);   // split > 8
  EXPECT_EQ(status({W, 8, -1, 0, 2, 16, 4}), BLOCKFP8_ERROR_INVALID_CONFIG);
  EXPECT_EQ(status({W, 8, 1, 4, 2, 16, 4}), BLOCKFP8_ERROR_INVALID_CONFIG);   // the ring is stage_kblocks
  blockfp8_config_t c{W, 8, 2, 0, 0, 0, 0};
  EXPECT_EQ(check_config(c, 4, 100, 128, d), BLOCKFP8_ERROR_INVALID_CONFIG);  // split > k-blocks
  // Zeros take the defaults: 16 rows, two warpgroups, unsplit, the largest batch instantiated.
  c = {W, 8, 0, 0, 0, 0, 0};
  ASSERT_EQ(check_config(c, 4, 2112, 7168, d), BLOCKFP8_SUCCESS);
  EXPECT_EQ(c.weight_rows, 16);
  EXPECT_EQ(c.warpgroups, kWarpMmaDefaultWarpgroups);
  EXPECT_EQ(c.split_k, 1);
  EXPECT_EQ(c.stage_kblocks, 8);
  // Every instantiation runs with its default warps.
#define BLOCKFP8_WARPMMA_DEFAULTS(TT, RR, UU)                              \
  {                                                                        \
    blockfp8_config_t v{W, TT, 1, 0, 0, RR, UU};                           \
    EXPECT_EQ(check_config(v, 4, 2112, 7168, d), BLOCKFP8_SUCCESS) << TT << " " << RR << " " << UU; \
  }
  BLOCKFP8_WARPMMA_CONFIGS(BLOCKFP8_WARPMMA_DEFAULTS)
#undef BLOCKFP8_WARPMMA_DEFAULTS
}

TEST(Dispatch, BatchInvariantConfigIgnoresM) {
  const DeviceInfo d = h200();
  for (int64_t n : {1, 576, 2112, 4097, 24576})
    for (int64_t k : {128, 7168, 16384}) {
      const blockfp8_config_t c = choose_batch_invariant_config(n, k, d);
      EXPECT_EQ(c.kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK);
      EXPECT_EQ(c.token_tile, kBatchInvariantTokenTile);
      EXPECT_EQ(c.warpgroups, 2);
      for (int64_t m : {1, 33, 4096}) {
        blockfp8_config_t checked = c;
        ASSERT_EQ(check_config(checked, m, n, k, d), BLOCKFP8_SUCCESS) << n << " " << k;
        blockfp8_config_t at_one = c;
        ASSERT_EQ(check_config(at_one, 1, n, k, d), BLOCKFP8_SUCCESS);
        EXPECT_EQ(checked.stages, at_one.stages);  // nothing filled in depends on M
        EXPECT_EQ(checked.split_k, at_one.split_k);
        EXPECT_EQ(checked.weight_rows, at_one.weight_rows);
      }
    }
}

TEST(Dispatch, NoShallowRingWhenADeeperOneRuns) {
  // 7168 x 16384 at M = 128: unsplit, the 128-token tile's double-buffered scales leave one stage
  // (measured 1.8x slower than the old kernel, bench/results 51c10d4). A split with a real ring wins.
  const DeviceInfo d = h200();
  blockfp8_config_t c = choose_config(128, 7168, 16384, d);
  ASSERT_EQ(check_config(c, 128, 7168, 16384, d), BLOCKFP8_SUCCESS);
  EXPECT_GE(c.stages, kSwapabUsefulStages);
  // Where K is so long that no configuration has a deep ring, a shallow one still runs.
  blockfp8_config_t deep_k = choose_config(128, 2112, int64_t(128) * 1024, d);
  EXPECT_EQ(check_config(deep_k, 128, 2112, int64_t(128) * 1024, d), BLOCKFP8_SUCCESS);
}

TEST(Dispatch, TiledTakesWideWeightsAtMidM) {
  const DeviceInfo d = h200();
  // Measured at M = 64-128 (dispatch.cpp, tiled_wins): from 36 weight tiles of 128 rows at M > 64,
  // from 72 at M = 33-64.
  EXPECT_EQ(choose_config(128, 32768, 512, d).kernel, BLOCKFP8_KERNEL_TILED);
  EXPECT_EQ(choose_config(128, 7168, 16384, d).kernel, BLOCKFP8_KERNEL_TILED);
  EXPECT_EQ(choose_config(96, 4608, 7168, d).kernel, BLOCKFP8_KERNEL_TILED);
  EXPECT_EQ(choose_config(64, 32768, 512, d).kernel, BLOCKFP8_KERNEL_TILED);
  EXPECT_EQ(choose_config(64, 9216, 7168, d).kernel, BLOCKFP8_KERNEL_TILED);
  EXPECT_EQ(choose_config(64, 24576, 1536, d).kernel, BLOCKFP8_KERNEL_TILED);
  // From 12 weight tiles with long K, where the tiled kernel splits K (s13 calls 1-2), unless two
  // 64-token decode tiles fill every SM in one round (below).
  for (int64_t n : {1536, 3072, 4096})
    for (int64_t m : {65, 96, 128}) {
      const blockfp8_config_t c = choose_config(m, n, 7168, d);
      EXPECT_EQ(c.kernel, BLOCKFP8_KERNEL_TILED) << m << " " << n;
      EXPECT_GT(c.split_k, 1) << m << " " << n;
    }
  // Narrower weights, short K, and M = 33-64 stay on the decode kernel; so does M <= 32 but for the
  // short, very wide weights of TiledTakesShortWideWeightsFromFiveTokens.
  EXPECT_EQ(choose_config(128, 576, 7168, d).kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK);
  EXPECT_EQ(choose_config(128, 2048, 1536, d).kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK);  // (3072x1536: below)
  EXPECT_EQ(choose_config(64, 2112, 7168, d).kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK);
  EXPECT_EQ(choose_config(64, 4096, 7168, d).kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK);
  EXPECT_EQ(choose_config(64, 6144, 7168, d).kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK);
  EXPECT_EQ(choose_config(64, 7168, 16384, d).kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK);
  // ... but where the decode pick needs two rounds of clusters (4608x7168: 72 tiles of 64 rows at split
  // 3) and the tiled kernel splits K over one, the split tiled plan (s26 calls 3-4: 0.83-0.85x).
  for (int64_t m : {33, 48, 64}) {
    const blockfp8_config_t c = choose_config(m, 4608, 7168, d);
    EXPECT_EQ(c.kernel, BLOCKFP8_KERNEL_TILED) << m;
    EXPECT_GT(c.split_k, 1) << m;
  }
  EXPECT_EQ(choose_config(64, 7168, 2048, d).kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK);  // 56 tiles, 16 k-blocks
  EXPECT_EQ(choose_config(64, 6144, 1536, d).kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK);  // 48 tiles, 12 k-blocks
  // Short K (at most 8 k-blocks) from 32 tiles: the tiled kernel at 33-64 tokens (s25 call 4).
  for (int64_t m : {33, 64}) {
    EXPECT_EQ(choose_config(m, 7168, 1024, d).kernel, BLOCKFP8_KERNEL_TILED) << m;
    EXPECT_EQ(choose_config(m, 8192, 512, d).kernel, BLOCKFP8_KERNEL_TILED) << m;
    EXPECT_EQ(choose_config(m, 4096, 512, d).kernel, BLOCKFP8_KERNEL_TILED) << m;
    EXPECT_EQ(choose_config(m, 7168, 256, d).kernel, BLOCKFP8_KERNEL_TILED) << m;
    EXPECT_EQ(choose_config(m, 3072, 512, d).kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK) << m;  // 24 tiles
  }
  EXPECT_EQ(choose_config(32, 7168, 1024, d).kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK);  // not at 32 tokens
  for (int64_t m : {9, 32}) EXPECT_EQ(choose_config(m, 16384, 512, d).kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK);
  for (int64_t m : {1, 4}) EXPECT_EQ(choose_config(m, 36864, 7168, d).kernel, BLOCKFP8_KERNEL_WARP_MMA);  // many strips
  // Short K from 24 tiles at 65-128 tokens (s25 call 9).
  for (int64_t m : {65, 96, 128}) {
    EXPECT_EQ(choose_config(m, 4096, 512, d).kernel, BLOCKFP8_KERNEL_TILED) << m;
    EXPECT_EQ(choose_config(m, 3072, 1536, d).kernel, BLOCKFP8_KERNEL_TILED) << m;
    EXPECT_EQ(choose_config(m, 2048, 1536, d).kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK) << m;  // 16 tiles
    EXPECT_EQ(choose_config(m, 3072, 2048, d).kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK) << m;  // 16 k-blocks
  }
}

// From 5 to 32 tokens, weights with more 128-row tiles than SMs and K <= 24 k-blocks go to the tiled
// kernel (tiled_wins; forced, s25 call 3: 0.69-0.96x the decode picks at M = 8-32), and from 1 to 4
// tokens those with K <= 4 k-blocks (32768x512: 0.88-0.90x, s25 call 9).
TEST(Dispatch, TiledTakesShortWideWeightsFromFiveTokens) {
  const DeviceInfo d = h200();
  struct Shape {
    int64_t n, k;
    bool tiled;
  };
  for (const Shape s : {Shape{24576, 1536, true}, Shape{32768, 512, true}, Shape{20480, 1536, true},
                        Shape{32768, 1024, true}, Shape{24576, 3072, true},
                        Shape{24576, 4096, false},   // 25+ k-blocks: 1.02x at M = 8-16
                        Shape{36864, 7168, false},   // 1.06-1.20x
                        Shape{16384, 512, false},    // 128 tiles, not more than the SMs: 1.06-1.22x
                        Shape{12288, 1536, false}})  // 96 tiles: 1.03-1.12x
    for (int64_t m : {1, 4, 5, 8, 16, 32}) {
      blockfp8_config_t c = choose_config(m, s.n, s.k, d);
      const bool want = s.tiled && (m > 4 || s.k <= 512);  // 1-4 tokens: only the shortest K
      EXPECT_EQ(c.kernel == BLOCKFP8_KERNEL_TILED, want) << m << " x " << s.n << " x " << s.k;
      EXPECT_EQ(check_config(c, m, s.n, s.k, d), BLOCKFP8_SUCCESS) << m << " x " << s.n << " x " << s.k;
    }
  DeviceInfo more = d;
  more.sm_count = 200;  // the tile count is against the device's SMs
  EXPECT_NE(choose_config(16, 24576, 1536, more).kernel, BLOCKFP8_KERNEL_TILED);
  // From 17 tokens the shortest K (2 k-blocks) from 32 tiles too (s26 call 1: 7168x256 0.92-0.94x).
  for (int64_t m : {17, 24, 32}) EXPECT_EQ(choose_config(m, 7168, 256, d).kernel, BLOCKFP8_KERNEL_TILED) << m;
  EXPECT_NE(choose_config(16, 7168, 256, d).kernel, BLOCKFP8_KERNEL_TILED);
  EXPECT_NE(choose_config(24, 7168, 512, d).kernel, BLOCKFP8_KERNEL_TILED);
}

// 2112 rows = 33 tiles of 64; two 64-token tiles at split 2 are 132 CTAs, one round on 132 SMs
// (swapab_two_tile_split: 0.86x the tiled kernel's time at M = 128, s24 call 7). Only at 64 < M <= 128,
// only where the fill is exact, and only where every rank keeps two k-blocks.
TEST(Dispatch, TwoTokenTilesWhereTheyFillEverySm) {
  const DeviceInfo d = h200();
  for (int64_t m : {65, 96, 128}) {
    blockfp8_config_t c = choose_config(m, 2112, 7168, d);
    EXPECT_EQ(c.kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK) << m;
    EXPECT_EQ(c.token_tile, 64) << m;
    EXPECT_EQ(c.weight_rows, 64) << m;
    EXPECT_EQ(c.split_k, 2) << m;
    EXPECT_EQ(check_config(c, m, 2112, 7168, d), BLOCKFP8_SUCCESS) << m;
  }
  EXPECT_EQ(swapab_two_tile_split(64, 2112, 7168, d), 0);   // one token tile
  EXPECT_EQ(swapab_two_tile_split(129, 2112, 7168, d), 0);  // three
  EXPECT_EQ(swapab_two_tile_split(128, 2112, 256, d), 0);   // one k-block a rank
  EXPECT_EQ(swapab_two_tile_split(128, 1536, 7168, d), 0);  // 96 CTAs: short of a round
  EXPECT_EQ(swapab_two_tile_split(128, 2100, 7168, d), 0);  // not whole 64-row tiles
  EXPECT_EQ(swapab_two_tile_split(128, 4224, 7168, d), 1);  // 66 tiles x 2 tokens, unsplit
  EXPECT_EQ(swapab_two_tile_split(128, 2112, int64_t(128) * 1024, d), 0);  // K slices too long for a ring
  DeviceInfo small = d;
  small.sm_count = 114;
  EXPECT_EQ(swapab_two_tile_split(128, 2112, 7168, small), 0);
}

TEST(Dispatch, SmallWeightsPastOneTokenTileTakeTheTiledSplit) {
  // Above 128 tokens the tiled kernel wins wherever it splits K, however few its tiles (dispatch.cpp,
  // tiled_wins): 576x7168 took 0.88-0.93x the decode pick's time at M = 129-256 (s32 call 4).
  const DeviceInfo d = h200();
  for (int64_t m : {129, 256, 320, 512}) {
    blockfp8_config_t c = choose_config(m, 576, 7168, d);
    EXPECT_EQ(c.kernel, BLOCKFP8_KERNEL_TILED) << m;
    EXPECT_GT(c.split_k, 1) << m;
    EXPECT_EQ(check_config(c, m, 576, 7168, d), BLOCKFP8_SUCCESS) << m;
  }
  EXPECT_EQ(choose_config(512, 2112, 7168, d).kernel, BLOCKFP8_KERNEL_TILED);
  const blockfp8_config_t split = choose_config(256, 2112, 7168, d);
  EXPECT_EQ(split.kernel, BLOCKFP8_KERNEL_TILED);
  EXPECT_GT(split.split_k, 1);
  EXPECT_EQ(choose_config(256, 1536, 7168, d).kernel, BLOCKFP8_KERNEL_TILED);
  EXPECT_EQ(choose_config(128, 576, 7168, d).kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK);  // one token tile
  EXPECT_EQ(choose_config(256, 4096, 7168, d).kernel, BLOCKFP8_KERNEL_TILED);
  EXPECT_EQ(choose_config(256, 7168, 2048, d).kernel, BLOCKFP8_KERNEL_TILED);
  EXPECT_EQ(choose_config(513, 576, 7168, d).kernel, BLOCKFP8_KERNEL_TILED);
  // Where the tiled kernel does not split (4 k-blocks), the decode kernel keeps a small weight: two
  // token tiles of 128, split by tokens over two warpgroups.
  const blockfp8_config_t c = choose_config(256, 576, 512, d);
  EXPECT_EQ(c.kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK);
  EXPECT_EQ(choose_tiled_config(256, 576, 512, d).split_k, 1);
  EXPECT_EQ(c.token_tile, 128);
  EXPECT_EQ(c.warpgroups, 2);
}

TEST(Dispatch, DefaultWarpgroupsFallBackToOne) {
  // A forced 128-token tile with one stage: two split-token warpgroups need two, one runs.
  const DeviceInfo d = h200();
  blockfp8_config_t c{BLOCKFP8_KERNEL_SWAPAB_SPLITK, 128, 1, 1, 0};
  ASSERT_EQ(check_config(c, 128, 2112, 7168, d), BLOCKFP8_SUCCESS);
  EXPECT_EQ(c.warpgroups, 1);
  blockfp8_config_t two{BLOCKFP8_KERNEL_SWAPAB_SPLITK, 128, 1, 0, 0};
  ASSERT_EQ(check_config(two, 128, 2112, 7168, d), BLOCKFP8_SUCCESS);
  EXPECT_EQ(two.warpgroups, 2);
}

TEST(Dispatch, ShortKSharesSMs) {
  // kv_b (N = 32768, K = 512): a CTA's footprint is a few KB of ring, so several share an SM; the
  // cost model counts them (the launch sizes its persistent grid with the occupancy API).
  const DeviceInfo d = h200();
  const int smem_short = swapab_smem_bytes(8, 64, 1, 6, 4);
  EXPECT_GE(swapab_ctas_per_sm(8, 2, smem_short, d), 2);
  const int smem_long = swapab_smem_bytes(8, 64, 1, 24, 56);
  EXPECT_EQ(swapab_ctas_per_sm(8, 2, smem_long, d), 1);
  // Registers cap it too: 64 tokens with two warpgroups sit at the register limit.
  EXPECT_EQ(swapab_ctas_per_sm(64, 2, smem_short, d), 1);
  // With three CTAs per SM, 512 tiles of 64 rows take two rounds instead of four: cheaper than the
  // one-CTA-per-SM estimate.
  DeviceInfo one_per_sm = d;
  for (auto& row : one_per_sm.swapab_reg_ctas) row[1] = row[2] = 1;
  EXPECT_LT(swapab_cost_ns(1, 32768, 512, 8, 64, 1, d), swapab_cost_ns(1, 32768, 512, 8, 64, 1, one_per_sm));
}

TEST(Dispatch, AnyNIsTiledWithoutPadding) {
  // Tiles cover ceil(N / weight_rows) rows; nothing requires N % 64 or N % 128.
  const DeviceInfo d = h200();
  for (int64_t n : {1, 7, 63, 65, 2112, 4097}) {
    blockfp8_config_t c = choose_config(1, n, 7168, d);
    EXPECT_EQ(check_config(c, 1, n, 7168, d), BLOCKFP8_SUCCESS) << n;
  }
}

// Paired rings: where the best full-ring configuration leaves SMs idle (several rounds, or under
// three quarters of the SMs), token tiles up to 32 may take a ring two CTAs share an SM with.
// Measured (bench/results/logs/2026-11-30-s7-ab/call7): 4608x7168 0.85x, 9216x7168 0.84-0.89x,
// 12288x1536 0.74-0.80x at M <= 16; 2112x7168 (99 CTAs on full rings) lost 1.08-1.11x, M >= 32 lost.
TEST(Dispatch, PairedRingsOnlyWhereFullRingsLeaveSMsIdle) {
  const DeviceInfo d = h200();
  auto ctas_per_sm_of = [&](int64_t m, int64_t n, int64_t k) {
    blockfp8_config_t c = choose_swapab_config(m, n, k, d);  // the TMA decode kernel's rule
    EXPECT_EQ(check_config(c, m, n, k, d), BLOCKFP8_SUCCESS) << n << "x" << k << " M=" << m;
    const int kb_slice = swapab_kb_slice(int(k / 128), c.split_k);
    return swapab_ctas_per_sm(c.token_tile, c.warpgroups,
                              swapab_smem_bytes(c.token_tile, c.weight_rows, c.stage_kblocks, c.stages, kb_slice), d);
  };
  for (int64_t m : {1, 8, 16}) {
    EXPECT_EQ(ctas_per_sm_of(m, 4608, 7168), 2) << m;   // 72 tiles: 72 full-ring CTAs, or 216 paired
    EXPECT_EQ(ctas_per_sm_of(m, 12288, 1536), 2) << m;  // 192 tiles: several full-ring rounds
    EXPECT_EQ(ctas_per_sm_of(m, 2112, 7168), 1) << m;   // 99 full-ring CTAs in one round
  }
  EXPECT_EQ(ctas_per_sm_of(32, 4608, 7168), 2);  // 32 tokens too, now that two such CTAs fit an SM
  EXPECT_EQ(ctas_per_sm_of(64, 4608, 7168), 1);  // wider token tiles keep their full rings
  // A paired ring is never shallower than a useful one, and holds two CTAs an SM by shared memory.
  int paired = 0;
  for (int kb_slice : {4, 12, 19, 56}) {
    const int st = swapab_paired_stages(8, 64, 1, kb_slice, 2, d);
    if (st == 0) continue;
    ++paired;
    EXPECT_GE(st, kSwapabUsefulStages) << kb_slice;
    EXPECT_GE(swapab_ctas_per_sm(8, 2, swapab_smem_bytes(8, 64, 1, st, kb_slice), d), 2) << kb_slice;
  }
  EXPECT_GT(paired, 0) << "no slice length had a paired ring: the loop above checked nothing";
}

// Tile heights that do not divide 128 (tiles across b_scale blocks), where the dispatcher takes them
// (s22 call 4): 56-row tiles fill 128 SMs on the N = 7168 weights at 8-32 tokens and long K, where
// 64-row tiles fill 112; never at 64 tokens, on short K slices, or where they are not instantiated.
TEST(Dispatch, StraddlingTilesWhereTheyMeasuredFaster) {
  const DeviceInfo d = h200();
  for (int64_t k : {4096, 8192, 16384})
    for (int64_t m : {8, 16, 32}) {
      const blockfp8_config_t c = choose_config(m, 7168, k, d);
      EXPECT_EQ(c.kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK) << m << " " << k;
      EXPECT_EQ(c.weight_rows, 56) << m << " " << k;
      EXPECT_EQ(c.split_k, 1) << m << " " << k;
    }
  EXPECT_EQ(choose_config(64, 7168, 16384, d).weight_rows, 64);  // 64 tokens: 1.03-1.07x
  EXPECT_EQ(choose_config(16, 7168, 2048, d).weight_rows, 64);   // 16 k-blocks a CTA: 1.006-1.022x
  EXPECT_EQ(choose_config(16, 3072, 1536, d).weight_rows, 64);   // split 3 of 12 k-blocks: 1.14x
  EXPECT_EQ(choose_config(8, 4608, 7168, d).weight_rows, 64);    // kept by name: 1.061x
  EXPECT_EQ(choose_swapab_config(16, 24576, 1536, d).weight_rows, 64);  // 1.039x (the tiled kernel runs it now)
  EXPECT_EQ(choose_config(32, 36864, 7168, d).weight_rows, 64);  // 1.029x
  EXPECT_EQ(choose_config(16, 36864, 7168, d).weight_rows, 48);  // 0.967x
  EXPECT_EQ(choose_config(8, 18432, 7168, d).weight_rows, 40);   // 0.91x
  // Every choice over the set is one the kernel has an instance for.
  for (int64_t n : {576, 1536, 2112, 3072, 4096, 4608, 6144, 7168, 9216, 12288, 18432, 24576, 36864})
    for (int64_t k : {512, 1536, 2048, 7168, 16384})
      for (int64_t m : {1, 8, 16, 32, 64, 128, 256}) {
        blockfp8_config_t c = choose_config(m, n, k, d);
        if (c.kernel != BLOCKFP8_KERNEL_SWAPAB_SPLITK || !swapab_rows_straddle(c.weight_rows)) continue;
        EXPECT_TRUE(swapab_straddle_ok(c.token_tile, c.warpgroups)) << n << "x" << k << " M=" << m;
        EXPECT_LE(c.token_tile, kSwapabStraddleMaxTokenTile) << n << "x" << k << " M=" << m;
        EXPECT_GE(swapab_kb_slice(int(k / 128), c.split_k), kSwapabStraddleMinSlice) << n << "x" << k << " M=" << m;
        EXPECT_EQ(check_config(c, m, n, k, d), BLOCKFP8_SUCCESS) << n << "x" << k << " M=" << m;
      }
  // The owner's sum and the fused kernel keep aligned tiles (no instances of theirs straddle).
  blockfp8_config_t c{BLOCKFP8_KERNEL_SWAPAB_SPLITK, 16, 3, 0, 2, 56, 1};
  EXPECT_FALSE(swapab_owner_sum_ok(c, 56, 0));
  c.weight_rows = 64;
  EXPECT_TRUE(swapab_owner_sum_ok(c, 56, 0));
  blockfp8_config_t f{BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 1, 4, 2, 64, 1};
  EXPECT_GT(swapab_fused_stages(f, 1, 2112, 1024, d), 0);
  f.weight_rows = 48;
  EXPECT_EQ(swapab_fused_stages(f, 1, 2112, 1024, d), 0);
}

// The dispatcher's rings over short streams hold at most kSwapabRingWeightBytesPerSm of weight an SM, with
// the CTAs an SM the deeper ring had; long streams keep their depth (s29 calls 1-2).
TEST(Dispatch, RingsOverShortStreamsKeepTheWeightBudget) {
  const DeviceInfo d = h200();
  auto checked = [&](int64_t m, int64_t n, int64_t k) {
    blockfp8_config_t c = choose_swapab_config(m, n, k, d);
    EXPECT_EQ(check_config(c, m, n, k, d), BLOCKFP8_SUCCESS) << n << "x" << k << " M=" << m;
    return c;
  };
  auto ctas = [&](const blockfp8_config_t& c, int64_t k, int stages) {
    return swapab_ctas_per_sm(c.token_tile, c.warpgroups,
                              swapab_smem_bytes(c.token_tile, c.weight_rows, c.stage_kblocks, stages,
                                                swapab_kb_slice(int(k / 128), c.split_k)),
                              d);
  };
  // The primary shape at 16 tokens: 10 stages of two 64-row k-blocks (the whole 19-k-block slice) -> 6,
  // still one CTA an SM (5 would let two share one: 1.028x, call 2).
  const blockfp8_config_t p16 = checked(16, 2112, 7168);
  EXPECT_EQ(p16.stages, 6);
  EXPECT_LE(p16.stages * p16.stage_kblocks * p16.weight_rows * 128, kSwapabRingWeightBytesPerSm);
  EXPECT_EQ(ctas(p16, 7168, p16.stages), 1);
  EXPECT_EQ(checked(32, 2112, 7168).stages, 12);  // one-k-block stages of 8 KB
  // Paired rings share the budget: 4608x7168 at 16 tokens, two CTAs an SM, 10 -> 6 stages of 8 KB.
  const blockfp8_config_t paired = checked(16, 4608, 7168);
  EXPECT_EQ(paired.stages, 6);
  EXPECT_EQ(ctas(paired, 7168, paired.stages), 2);
  // Long streams keep their rings: 7168x16384 and 7168x18432 unsplit (128 and 144 k-blocks) their deep
  // default ones, 24576x7168 at 16 tokens (two rounds of 56-k-block slices) its paired 5 stages.
  for (const auto& [n, k] : {std::pair<int64_t, int64_t>{7168, 16384}, {7168, 18432}}) {
    const blockfp8_config_t c = checked(16, n, k);
    EXPECT_EQ(c.stages, swapab_default_stages(c.token_tile, c.weight_rows, c.stage_kblocks,
                                              swapab_kb_slice(int(k / 128), c.split_k), c.warpgroups, d))
        << n << "x" << k;
    EXPECT_GT(c.stages * c.stage_kblocks * c.weight_rows * 128, kSwapabRingWeightBytesPerSm) << n << "x" << k;
  }
  EXPECT_EQ(checked(16, 24576, 7168).stages, 5);
}

// Paired rings where one round of full rings leaves a quarter of the SMs idle only over full-ring slices
// of kSwapabPairedFewCtasMinSlice k-blocks or more (s29 calls 4-6).
TEST(Dispatch, PairedRingsWhereFullRingSlicesAreLong) {
  const DeviceInfo d = h200();
  const blockfp8_config_t short_slices = choose_swapab_config(32, 1536, 7168, d);  // 96 CTAs, 14 k-blocks
  EXPECT_EQ(short_slices.split_k, 4);
  EXPECT_EQ(short_slices.weight_rows, 64);
  EXPECT_EQ(choose_swapab_config(24, 3072, 7168, d).split_k, 2);  // 96 CTAs, 28 k-blocks
  const blockfp8_config_t long_slices = choose_swapab_config(16, 6144, 7168, d);  // full: 96 CTAs, 56 k-blocks
  EXPECT_EQ(long_slices.weight_rows, 48);
  EXPECT_EQ(long_slices.split_k, 2);
  blockfp8_config_t c = long_slices;
  ASSERT_EQ(check_config(c, 16, 6144, 7168, d), BLOCKFP8_SUCCESS);
  EXPECT_EQ(swapab_ctas_per_sm(c.token_tile, c.warpgroups,
                               swapab_smem_bytes(c.token_tile, c.weight_rows, c.stage_kblocks, c.stages,
                                                 swapab_kb_slice(56, c.split_k)),
                               d),
            2);
}

// The bf16a path's quantiser goes out with PDL up to 256 tokens, whatever the weight (s31 call 2), and
// is bounded so that its grid spreads over every SM in one wave.
TEST(Dispatch, Bf16aQuantizerPdlSpreadOverTheSms) {
  for (int64_t m : {1, 2, 16, 64, 128, 256}) EXPECT_TRUE(bf16a_quantizer_pdl(m)) << m;
  EXPECT_FALSE(bf16a_quantizer_pdl(257));
  EXPECT_FALSE(bf16a_quantizer_pdl(4096));
  // 132 SMs, eight CTAs an SM at most: 56 CTAs (M = 64 at K = 7168) one an SM, 224 (M = 256) two;
  // up to a quarter of the SMs (14 CTAs at M = 16), no bound.
  EXPECT_EQ(bf16a_quantizer_ctas_per_sm(14, 8, 132), 0);
  EXPECT_EQ(bf16a_quantizer_ctas_per_sm(4, 16, 132), 0);
  EXPECT_EQ(bf16a_quantizer_ctas_per_sm(33, 8, 132), 0);
  EXPECT_EQ(bf16a_quantizer_ctas_per_sm(34, 8, 132), 1);
  EXPECT_EQ(bf16a_quantizer_ctas_per_sm(56, 8, 132), 1);
  EXPECT_EQ(bf16a_quantizer_ctas_per_sm(132, 8, 132), 1);
  EXPECT_EQ(bf16a_quantizer_ctas_per_sm(133, 8, 132), 2);
  EXPECT_EQ(bf16a_quantizer_ctas_per_sm(224, 8, 132), 2);
  // A grid that fills the SMs at their occupancy needs no bound.
  EXPECT_EQ(bf16a_quantizer_ctas_per_sm(8 * 132, 8, 132), 0);
  EXPECT_EQ(bf16a_quantizer_ctas_per_sm(3584, 8, 132), 0);
  EXPECT_EQ(bf16a_quantizer_ctas_per_sm(7 * 132, 8, 132), 7);
  EXPECT_EQ(bf16a_quantizer_ctas_per_sm(0, 8, 132), 0);
  EXPECT_EQ(bf16a_quantizer_ctas_per_sm(10, 8, 0), 0);
  // The bound is what smem_for_ctas_per_sm turns into shared memory; every such c fits a CTA's opt-in.
  const DeviceInfo d;
  for (int c = 1; c < 8; ++c) {
    const int smem = smem_for_ctas_per_sm(c, d);
    EXPECT_LE(smem, d.smem_per_block_optin) << c;
    EXPECT_EQ(d.smem_per_sm / (smem + d.smem_reserved_per_cta), c) << c;
  }
}

}  // namespace

TEST(Dispatch, ShortKDecodeSplitsInTwoWhereItMeasuredFaster) {
  // swapab_cost_ns's split term (s33 call 5, forced, three shuffled rounds): at 32-token tiles split 2
  // took 0.91x the unsplit pick on 7168x512 and 0.94-0.95x on 8192x512 at M = 24-32; at 16-token tiles
  // it lost on both (1.05-1.07x at M = 16), and on 7168x256 (1.12x).
  const DeviceInfo d = h200();
  for (int64_t m : {17, 24, 32}) {
    EXPECT_EQ(choose_config(m, 7168, 512, d).split_k, 2) << m;
    EXPECT_EQ(choose_config(m, 8192, 512, d).split_k, 2) << m;
  }
  for (int64_t m : {9, 12, 16}) {
    EXPECT_EQ(choose_config(m, 7168, 512, d).split_k, 1) << m;
    EXPECT_EQ(choose_config(m, 8192, 512, d).split_k, 1) << m;
  }
  EXPECT_EQ(choose_config(16, 7168, 256, d).split_k, 1);
  for (int64_t m : {9, 16, 24, 32}) {
    blockfp8_config_t c = choose_config(m, 7168, 512, d);
    EXPECT_EQ(c.kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK) << m;
    EXPECT_EQ(check_config(c, m, 7168, 512, d), BLOCKFP8_SUCCESS) << m;
  }
}

namespace {

bool same_config(const blockfp8_config_t& a, const blockfp8_config_t& b) {
  return a.kernel == b.kernel && a.token_tile == b.token_tile && a.weight_rows == b.weight_rows &&
         a.split_k == b.split_k && a.stages == b.stages && a.cluster_m == b.cluster_m && a.cluster_n == b.cluster_n &&
         (a.kernel != BLOCKFP8_KERNEL_SWAPAB_SPLITK ||
          (a.warpgroups == b.warpgroups && a.stage_kblocks == b.stage_kblocks));
}

// Every entry of the measured table runs as written (check_config takes it unchanged) at every M of its
// range, the rules decide just outside it, and on another GPU the table is not consulted.
TEST(MeasuredPicks, RunAsWrittenInsideTheirRangesOnTheMeasuredGpuOnly) {
  const DeviceInfo d = h200();
  DeviceInfo other = d;  // an H100 PCIe: 114 SMs
  other.sm_count = 114;
  int count = 0;
  const MeasuredPick* table = measured_picks(&count);
  ASSERT_GT(count, 0);
  for (int i = 0; i < count; ++i) {
    const MeasuredPick& e = table[i];
    ASSERT_LE(e.m_first, e.m_last);
    for (int64_t m = e.m_first; m <= e.m_last; ++m) {
      blockfp8_config_t want = e.cfg;
      ASSERT_EQ(check_config(want, m, e.n, e.k, d), BLOCKFP8_SUCCESS) << e.n << "x" << e.k << " M=" << m;
      EXPECT_TRUE(same_config(want, e.cfg)) << "check_config filled in fields of the entry at M=" << m;
      EXPECT_TRUE(same_config(choose_config(m, e.n, e.k, d), e.cfg)) << e.n << "x" << e.k << " M=" << m;
      blockfp8_config_t unused;
      EXPECT_FALSE(measured_pick(m, e.n, e.k, other, &unused));
    }
    // Ranges of one shape do not overlap (the first match would hide the second).
    for (int j = i + 1; j < count; ++j)
      if (table[j].n == e.n && table[j].k == e.k)
        EXPECT_TRUE(table[j].m_last < e.m_first || table[j].m_first > e.m_last) << e.n << "x" << e.k;
    blockfp8_config_t unused;
    for (int64_t m : {e.m_first - 1, e.m_last + 1}) {
      bool inside_another = false;
      for (int j = 0; j < count; ++j)
        inside_another |= j != i && table[j].n == e.n && table[j].k == e.k && m >= table[j].m_first && m <= table[j].m_last;
      if (!inside_another) EXPECT_FALSE(measured_pick(m, e.n, e.k, d, &unused)) << e.n << "x" << e.k << " M=" << m;
    }
  }
  // A shape the table does not name.
  blockfp8_config_t unused;
  EXPECT_FALSE(measured_pick(96, 576, 4096, d, &unused));
}

}  // namespace
