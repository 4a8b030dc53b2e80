#include "kernels/host_support.h"

namespace blockfp8::detail {

bool pdl_enabled() {
  static const bool on = env_switch("BLOCKFP8_PDL", true);
  return on;
}

cudaLaunchConfig_t launch_config(cudaLaunchAttribute (&attr)[2], int cluster, dim3 grid, int threads, int smem,
                                 cudaStream_t stream, bool cluster_attr, bool pdl) {
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = pdl && pdl_enabled() ? 1 : 0;
  attr[1].id = cudaLaunchAttributeClusterDimension;
  attr[1].val.clusterDim.x = unsigned(cluster);
  attr[1].val.clusterDim.y = 1;
  attr[1].val.clusterDim.z = 1;
  cudaLaunchConfig_t lc{};
  lc.gridDim = grid;
  lc.blockDim = dim3(unsigned(threads));
  lc.dynamicSmemBytes = size_t(smem);
  lc.stream = stream;
  lc.attrs = attr;
  lc.numAttrs = cluster_attr ? 2 : 1;
  return lc;
}

PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static const PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* ptr = nullptr;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &ptr, 12000, cudaEnableDefault, &q) !=
            cudaSuccess ||
        q != cudaDriverEntryPointSuccess)
      ptr = nullptr;
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(ptr);
  }();
  return fn;
}

namespace {

bool encode_tile_map(CUtensorMap* map, const TileMapSpec& spec) {
  const auto encode = tensor_map_encoder();
  const TileMapArgs a = tile_map_args(spec);
  if (!encode || a.rank == 0) return false;
  const cuuint32_t elem_strides[3] = {1, 1, 1};
  return encode(map, spec.type, a.rank, const_cast<void*>(spec.base), a.dims, a.strides, a.box, elem_strides,
                CU_TENSOR_MAP_INTERLEAVE_NONE, spec.swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

}  // namespace

bool cached_tile_map(CUtensorMap* map, const TileMapSpec& spec) {
  struct Entry {
    TileMapSpec spec;
    CUtensorMap map;
  };
  constexpr int kEntries = 16;  // a decode call uses 2 maps, a tiled one 3 to 5
  thread_local Entry cache[kEntries] = {};
  thread_local int next = 0;
  for (const Entry& e : cache) {
    if (e.spec.base && e.spec == spec) {
      *map = e.map;
      return true;
    }
  }
  if (!encode_tile_map(map, spec)) return false;
  cache[next] = Entry{spec, *map};
  next = (next + 1) % kEntries;
  return true;
}

}  // namespace blockfp8::detail
