#include "device_info.h"

#include <cuda_runtime_api.h>

#include <iterator>
#include <mutex>

#include "kernels/launch.h"

namespace blockfp8::detail {
namespace {

constexpr int kMaxDevices = 64;

struct Slot {
  std::once_flag once;
  DeviceInfo info;
  bool ok = false;
};
Slot g_slots[kMaxDevices];

bool query(int dev, DeviceInfo& info) {
  if (cudaDeviceGetAttribute(&info.sm_count, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&info.cc_major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&info.cc_minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&info.smem_per_block_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) !=
          cudaSuccess)
    return false;
  for (int s = 0; s <= kMaxSplitK; ++s) info.max_clusters[s] = 0;
  if (info.cc_major == 9 && info.cc_minor == 0) {
    // The decode kernel at its deepest ring: one CTA per SM.
    const int smem = swapab_smem_bytes(8, kSwapabRowsPerTile, 1, swapab_max_stages(8, kSwapabRowsPerTile, 1, 1, info), 1);
    for (int s = 1; s <= kMaxSplitK; ++s) info.max_clusters[s] = swapab_max_active_clusters(s, smem);
    for (int i = 0; i < int(std::size(kSwapabTokenTiles)); ++i)
      for (int w = 1; w <= 2; ++w) info.swapab_reg_ctas[i][w] = swapab_reg_ctas(kSwapabTokenTiles[i], w);
  }
  int per_sm = 0;
  if (cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev) == cudaSuccess) info.smem_per_sm = per_sm;
  int reserved = 0;
  if (cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, dev) == cudaSuccess)
    info.smem_reserved_per_cta = reserved;
  info.ordinal = dev;
  return true;
}

}  // namespace

blockfp8_status_t current_device_info(const DeviceInfo** info) {
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    cudaGetLastError();
    return BLOCKFP8_ERROR_CUDA;
  }
  if (dev < 0 || dev >= kMaxDevices) return BLOCKFP8_ERROR_UNSUPPORTED_DEVICE;
  Slot& slot = g_slots[dev];
  std::call_once(slot.once, [&] { slot.ok = query(dev, slot.info); });
  if (!slot.ok) return BLOCKFP8_ERROR_CUDA;
  *info = &slot.info;
  return BLOCKFP8_SUCCESS;
}

}  // namespace blockfp8::detail
