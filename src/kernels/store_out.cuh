// Writing one fp32 result to C in the caller's output dtype (bf16, fp16 or fp32), round to nearest.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "blockfp8/blockfp8.h"

namespace blockfp8::detail {

__device__ __forceinline__ void store_out(void* c, int64_t idx, float v, int dtype) {
  if (dtype == BLOCKFP8_DTYPE_BF16) {
    static_cast<__nv_bfloat16*>(c)[idx] = __float2bfloat16_rn(v);
  } else if (dtype == BLOCKFP8_DTYPE_FP16) {
    static_cast<__half*>(c)[idx] = __float2half_rn(v);
  } else {
    static_cast<float*>(c)[idx] = v;
  }
}

}  // namespace blockfp8::detail
