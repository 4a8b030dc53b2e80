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
  // not sm_count / s on Hopper (132 SMs hold 32 clusters of 4, not 33).
  int max_clusters[9] = {0, 132, 66, 44, 32, 26, 22, 18, 16};
};

constexpr int kSwapabTokenTiles[] = {8, 16, 32, 64, 128};
constexpr int kMaxSplitK = 8;
constexpr int kSwapabRowsPerTile = 64;  // weight rows per CTA: wgmma's M
constexpr int kSwapabRedPitch = kSwapabRowsPerTile + 4;  // floats per token row of the reduction buffer
constexpr int kSwapabMaxStages = 32;
// Two math warpgroups take alternate k-blocks; at 128 tokens their accumulators would not fit
// the registers a 288-thread CTA gets, so the widest tile runs one.
constexpr int kSwapabMaxTokenTileFor2Warpgroups = 64;

// Bytes of shared memory one pipeline stage of the decode kernel needs for a token tile.
int swapab_stage_bytes(int token_tile);
// K-blocks in the longest K slice of one CTA.
inline int swapab_kb_slice(int64_t kb_total, int split_k) { return int((kb_total + split_k - 1) / split_k); }
// Shared memory of the decode kernel's CTA: the stage ring, the scales of its K slice, the barriers.
int swapab_smem_bytes(int token_tile, int stages, int kb_slice);
// Up to this token tile a math warpgroup keeps the next k-block's wgmma in flight while it promotes
// the previous one, so it holds two stages at a time.
constexpr int kSwapabMaxPipelinedTokenTile = 64;
// The shallowest ring that cannot deadlock (each math warpgroup may hold two stages while it waits
// for a third) and that holds the reduction buffer.
int swapab_min_stages(int token_tile, int warpgroups);
// The fp32 partial tile parked in the stage ring for the cluster reduction.
int swapab_reduction_bytes(int token_tile);
// Deepest pipeline that fits the device next to the scales of a K slice of kb_slice k-blocks.
int swapab_max_stages(int token_tile, int kb_slice, const DeviceInfo& dev);

// The dispatcher's choice, assuming TMA-compatible pointers.
blockfp8_config_t choose_config(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev);

// Whether a (possibly forced) configuration can run (m, n, k) on dev. Fills in stages == 0.
blockfp8_status_t check_config(blockfp8_config_t& cfg, int64_t m, int64_t n, int64_t k, const DeviceInfo& dev);

}  // namespace blockfp8::detail
