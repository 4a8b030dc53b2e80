// Device-side input generation (no cuRAND: a counter-based hash, so any copy of any tensor can be
// regenerated bit for bit from its seed) and the small layout kernels the cuBLASLt peer needs.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace bench {

// Random e4m3 bytes, never a NaN encoding (0x7f, 0xff) and never a zero (0x00, 0x80).
void fill_e4m3(void* dst, size_t bytes, uint64_t seed, cudaStream_t stream);
// Random bf16 activations (count elements), finite and never zero: per 128-element group a magnitude
// 2^g with g uniform in [-10, 10], each element 2^-j (j uniform in [0, 6]) times that, random
// mantissa and sign. Groups' scales then differ by up to 2^20 and elements within one span 2^7.
// dst must be 16-byte aligned.
void fill_bf16(void* dst, size_t count, uint64_t seed, cudaStream_t stream);
// Random fp32 scales, log-uniform in [2^-8, 2^-4].
void fill_scales(float* dst, size_t count, uint64_t seed, cudaStream_t stream);
// dst[i * dst_s0 + j * dst_s1] = src[i * src_s0 + j * src_s1] for i < rows, j < cols.
void copy2d_f32(float* dst, int64_t dst_s0, int64_t dst_s1, const float* src, int64_t src_s0, int64_t src_s1,
                int64_t rows, int64_t cols, cudaStream_t stream);

// Seeds for one tensor of one copy; distinct tensors and copies never share a stream of numbers.
inline uint64_t tensor_seed(uint64_t run_seed, uint64_t tensor, uint64_t copy, uint64_t salt = 0) {
  return run_seed * 0x9E3779B97F4A7C15ull ^ (tensor << 56) ^ (copy << 32) ^ salt;
}

}  // namespace bench
