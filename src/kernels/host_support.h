// Host-side helpers the TMA kernels' launchers share.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>

#include <atomic>

#include "tile_map.h"

namespace blockfp8::detail {

// cuTensorMapEncodeTiled, looked up once through the runtime (no link-time dependency on libcuda);
// null where the driver does not provide it.
PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder();

// The tensor map for `spec`. Encoding costs about as much host time as a launch, and a serving
// engine calls each layer with the same weight (and, from its caching allocator, often the same
// activation and output buffers) every step, so each host thread keeps its last few maps.
bool cached_tile_map(CUtensorMap* map, const TileMapSpec& spec);

// A diagnostic switch from the environment: "0" or "1" in `var` (first character), else `fallback`.
// Callers keep the answer in a function-local static: read once per process.
bool env_switch(const char* var, bool fallback);

// Programmatic dependent launch for the decode kernels: on unless BLOCKFP8_PDL=0 (read once; a
// diagnostic switch for measuring what it is worth).
bool pdl_enabled();

constexpr int kMaxDevices = 64;

// Raises `kernel`'s dynamic shared-memory limit to the device's opt-in maximum, once per device
// (`raised`: the caller's per-kernel record), so every configuration up to that maximum launches.
template <typename Kernel>
cudaError_t raise_smem_limit(Kernel kernel, std::atomic<int> (&raised)[kMaxDevices], int smem_bytes) {
  int dev = 0;
  cudaError_t err = cudaGetDevice(&dev);
  if (err != cudaSuccess) return err;
  if (dev < kMaxDevices && raised[dev].load(std::memory_order_acquire) >= smem_bytes) return cudaSuccess;
  int optin = 0;
  err = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  if (err != cudaSuccess) return err;
  err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin);
  if (err == cudaSuccess && dev < kMaxDevices) raised[dev].store(optin, std::memory_order_release);
  return err;
}

}  // namespace blockfp8::detail
