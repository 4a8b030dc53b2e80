// Where the dispatcher's rules lose to another configuration by a measured margin on a DeepSeek
// shape, the configuration that won, by name of shape and M range. The rules (dispatch.cpp,
// dispatch_tiled.cpp) stay the general answer; this table holds what they get wrong on the shapes
// that matter most, until a rule is found that gets them right without moving other shapes (each
// entry below was a rule change tried first, and each such change lost somewhere else: the notes
// of the sessions cited say where).
//
// How an entry is made: force the pick and its rivals at every point of a fine M grid, three
// shuffled rounds in one call (blockfp8-bench --config ... --config-rounds 3), and take a range only
// where the rival won at every point of it. The M range is closed and lies inside the measured grid.
// Entries apply on the GPU they were measured on (132 SMs, compute capability 9.0: H100 SXM and H200
// share the SM count, the shared memory and the cluster limits the configurations rely on); elsewhere
// the rules decide alone. Every entry still passes check_config before it runs.
#include "dispatch.h"

#include <iterator>

namespace blockfp8::detail {
namespace {

constexpr int kMeasuredSmCount = 132;

constexpr blockfp8_config_t tiled(int rows, int stages, int cluster_m, int cluster_n, int split) {
  blockfp8_config_t c{};
  c.kernel = BLOCKFP8_KERNEL_TILED, c.token_tile = 128, c.weight_rows = rows, c.stages = stages;
  c.cluster_m = cluster_m, c.cluster_n = cluster_n, c.split_k = split;
  return c;
}

constexpr blockfp8_config_t decode(int rows, int tokens, int split, int stage_kblocks, int stages) {
  blockfp8_config_t c{};
  c.kernel = BLOCKFP8_KERNEL_SWAPAB_SPLITK, c.token_tile = tokens, c.weight_rows = rows, c.split_k = split;
  c.warpgroups = 2, c.stage_kblocks = stage_kblocks, c.stages = stages;
  return c;
}

// Times: the entry's configuration over the rules' pick at the same points, forced, three shuffled
// rounds, bench/results/logs/2026-12-02-s34/call2 (misses.jsonl) unless said otherwise.
constexpr MeasuredPick kMeasuredPicks[] = {
    // fused_qkv_a, 129-256 tokens. The rules split 144-row tiles 4 ways (the straddle cost keeps 128
    // rows off, the split cost 160 rows). 128 rows split 3: 0.941-0.973x at M = 129-224; 160 rows
    // split 4: 0.974-0.978x at 240-256, where 128 rows gives way (0.981-0.986x).
    {2112, 7168, 129, 224, tiled(128, 5, 1, 1, 3)},
    {2112, 7168, 225, 256, tiled(160, 5, 1, 1, 4)},
    // fused_qkv_a, 385-576 tokens. The rules take 64-row pairs (132 CTAs) to 512 and 176 rows split 2
    // above. Splits of 2 over wider tiles beat them at every point of a 32-token grid (s36 call 5,
    // bench/results/logs/2026-12-02-s36/call5): 160 rows split 2 (112 CTAs) 0.911-0.959x at M = 385-512
    // (144 and 192 rows split 2 0.900-0.975x); 192 rows split 2 0.939-0.965x at M = 544-576.
    {2112, 7168, 385, 512, tiled(160, 5, 1, 1, 2)},
    {2112, 7168, 513, 576, tiled(192, 4, 1, 1, 2)},
    // kv_a, 65-120 tokens: the tiled split (64 rows split 8) 0.951-0.983x the decode kernel's
    // 128-token tile split 8; even at 128 (0.996x), so the rule's boundary stays there.
    {576, 7168, 65, 120, tiled(64, 8, 1, 1, 8)},
    // kv_a, 385-512 tokens: 96 rows split 4 0.933-0.943x the rules' 64 rows split 3 (also s33 call 1,
    // 0.931-0.939x at 416-512).
    {576, 7168, 385, 512, tiled(96, 7, 1, 1, 4)},
    // 4608x7168 (gate_up/tp8), 33-128 tokens: 128 rows split 3 0.949-0.978x the rules' 160 rows
    // split 4 (also s33 call 1, 0.946-0.981x at 11 points).
    {4608, 7168, 33, 128, tiled(128, 5, 1, 1, 3)},
    // 1536x7168, 65-120 tokens: 64 rows split 4 0.962-0.987x the rules' 128 rows split 8; even at 128.
    {1536, 7168, 65, 120, tiled(64, 8, 1, 1, 4)},
    // kv_b/tp8 (4096x512), 9-16 tokens: split 2 0.913-0.945x unsplit. The split cost that takes it
    // also took splits of 2 at 16-token tiles on 7168x512 and 8192x512, which lost (s33 call 5).
    {4096, 512, 9, 16, decode(64, 16, 2, 1, 4)},
    // q_b/tp8 (3072x1536), 17-32 tokens: split 2 0.935-0.945x the rules' split 4; no setting of the
    // split cost moved it (s33 call 5).
    {3072, 1536, 17, 32, decode(64, 32, 2, 1, 9)},
    // q_b/tp8, 240-384 tokens: 96-row tiles. Unpaired at 240-256 (0.935-0.976x the rules' 64-row
    // pairs); from 257, where the rules take 80-row tiles, pairs along M (0.884-0.952x).
    {3072, 1536, 240, 256, tiled(96, 7, 1, 1, 1)},
    {3072, 1536, 257, 384, tiled(96, 7, 2, 1, 1)},
};

}  // namespace

bool measured_pick(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev, blockfp8_config_t* cfg) {
  if (dev.sm_count != kMeasuredSmCount || dev.cc_major != 9 || dev.cc_minor != 0) return false;
  for (const MeasuredPick& e : kMeasuredPicks) {
    if (e.n == n && e.k == k && m >= e.m_first && m <= e.m_last) {
      *cfg = e.cfg;
      return true;
    }
  }
  return false;
}

const MeasuredPick* measured_picks(int* count) {
  *count = int(std::size(kMeasuredPicks));
  return kMeasuredPicks;
}

}  // namespace blockfp8::detail
