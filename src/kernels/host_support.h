// Host-side helpers the TMA kernels' launchers share.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>

#include <atomic>

#include "dispatch.h"
#include "env.h"
#include "tile_map.h"

namespace blockfp8::detail {

// cuTensorMapEncodeTiled, looked up once through the runtime (no link-time dependency on libcuda);
// null where the driver does not provide it.
PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder();

// The tensor map for `spec`. Encoding costs about as much host time as a launch, and a serving
// engine calls each layer with the same weight (and, from its caching allocator, often the same
// activation and output buffers) every step, so each host thread keeps its last few maps.
bool cached_tile_map(CUtensorMap* map, const TileMapSpec& spec);

// Programmatic dependent launch for every GEMM kernel (and the bf16a quantiser): on unless
// BLOCKFP8_PDL=0 (read once; a diagnostic switch for measuring what it is worth).
bool pdl_enabled();

// A kernel's launch: `grid` CTAs, with programmatic dependent launch where `pdl` and pdl_enabled (the
// kernel may start while the preceding one in the stream finishes, and waits with griddepcontrol.wait
// before touching what that kernel may write), in clusters of `cluster` along x. cluster_attr false
// leaves the cluster attribute out (the tiled kernel without a cluster, the quantiser); the decode
// kernels always give it, a cluster of one included, as they were measured. Every GEMM kernel goes
// out with PDL; the quantiser where bf16a_quantizer_pdl says. attr must outlive the config.
cudaLaunchConfig_t launch_config(cudaLaunchAttribute (&attr)[2], int cluster, dim3 grid, int threads, int smem,
                                 cudaStream_t stream, bool cluster_attr = true, bool pdl = true);

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
