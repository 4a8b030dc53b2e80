// Writing fp32 results to C in the caller's output dtype (bf16, fp16 or fp32), rounded to nearest: one at a
// time (the dtype known at compile time or read at run time) or a quad at once.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>

#include "blockfp8/blockfp8.h"

namespace blockfp8::detail {

// One result (C[idx]) in C's dtype, a template argument: no branch on the dtype a store.
template <int kDtype>
__device__ __forceinline__ void store_out_as(void* c, int64_t idx, float v) {
  if constexpr (kDtype == BLOCKFP8_DTYPE_BF16) static_cast<__nv_bfloat16*>(c)[idx] = __float2bfloat16_rn(v);
  else if constexpr (kDtype == BLOCKFP8_DTYPE_FP16) static_cast<__half*>(c)[idx] = __float2half_rn(v);
  else static_cast<float*>(c)[idx] = v;
}
// f(std::integral_constant<int, dtype>{}): a loop over C made once per dtype, picked once at run time.
template <typename F>
__device__ __forceinline__ void with_c_dtype(int dtype, F&& f) {
  if (dtype == BLOCKFP8_DTYPE_BF16) f(std::integral_constant<int, BLOCKFP8_DTYPE_BF16>{});
  else if (dtype == BLOCKFP8_DTYPE_FP16) f(std::integral_constant<int, BLOCKFP8_DTYPE_FP16>{});
  else f(std::integral_constant<int, BLOCKFP8_DTYPE_FP32>{});
}
// One result with the dtype read at run time.
__device__ __forceinline__ void store_out(void* c, int64_t idx, float v, int dtype) {
  with_c_dtype(dtype, [&](auto d) { store_out_as<decltype(d)::value>(c, idx, v); });
}

// Four consecutive results (a quad: C[m][n..n+3], n a multiple of 4) by one 8-byte (bf16, fp16) or
// 16-byte (fp32) store, each rounded as store_out_as rounds it. Only where c_quads_aligned(c, ldc, dtype).
template <int kDtype>
__device__ __forceinline__ void store_out4_as(void* c, int64_t idx, float4 v) {
  if constexpr (kDtype == BLOCKFP8_DTYPE_BF16) {
    const __nv_bfloat162 lo = __floats2bfloat162_rn(v.x, v.y), hi = __floats2bfloat162_rn(v.z, v.w);
    *reinterpret_cast<uint2*>(static_cast<__nv_bfloat16*>(c) + idx) =
        make_uint2(*reinterpret_cast<const uint32_t*>(&lo), *reinterpret_cast<const uint32_t*>(&hi));
  } else if constexpr (kDtype == BLOCKFP8_DTYPE_FP16) {
    const __half2 lo = __floats2half2_rn(v.x, v.y), hi = __floats2half2_rn(v.z, v.w);
    *reinterpret_cast<uint2*>(static_cast<__half*>(c) + idx) =
        make_uint2(*reinterpret_cast<const uint32_t*>(&lo), *reinterpret_cast<const uint32_t*>(&hi));
  } else {
    *reinterpret_cast<float4*>(static_cast<float*>(c) + idx) = v;
  }
}
// The quad of C at idx whose first column is n (columns from n_end on are not stored): one store where
// whole_quads (c_quads_aligned) and the quad lies inside, else element by element.
template <int kDtype>
__device__ __forceinline__ void store_quad_as(void* c, int64_t idx, float4 v, int n, int n_end, bool whole_quads) {
  if (whole_quads && n + 3 < n_end) {
    store_out4_as<kDtype>(c, idx, v);
  } else {
    const float vals[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int e = 0; e < 4; ++e)
      if (n + e < n_end) store_out_as<kDtype>(c, idx + e, vals[e]);
  }
}
// Whether every quad of C (a row's elements 4i .. 4i + 3) starts on its own 4-element boundary: the
// base aligned to four elements and the row pitch a multiple of four.
__device__ __forceinline__ bool c_quads_aligned(const void* c, int64_t ldc, int dtype) {
  const int bytes = dtype == BLOCKFP8_DTYPE_FP32 ? 4 : 2;
  return ldc % 4 == 0 && reinterpret_cast<uintptr_t>(c) % (4 * bytes) == 0;
}

}  // namespace blockfp8::detail
