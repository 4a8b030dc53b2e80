#include "common.h"
#include "inputs.h"

namespace bench {
namespace {

__device__ __forceinline__ uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return x;
}

__device__ __forceinline__ uint32_t fix_e4m3(uint32_t b) {
  const uint32_t mag = b & 0x7Fu;
  if (mag == 0x7Fu) return b ^ 0x01u;  // NaN -> +-448, the largest finite value
  if (mag == 0u) return b | 0x08u;     // +-0 -> +-2^-6: a zero would hide a skipped element
  return b;
}

__global__ void fill_e4m3_kernel(uint8_t* dst, size_t bytes, uint64_t seed) {
  const size_t words = bytes / 8;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words + 1; i += stride) {
    const uint64_t h = mix64(seed + 0x9E3779B97F4A7C15ull * (i + 1));
    uint64_t w = 0;
    for (int b = 0; b < 8; ++b) w |= uint64_t(fix_e4m3(uint32_t(h >> (8 * b)) & 0xFFu)) << (8 * b);
    if (i < words) {
      reinterpret_cast<uint64_t*>(dst)[i] = w;
    } else {
      for (size_t b = 0; words * 8 + b < bytes; ++b) dst[words * 8 + b] = uint8_t(w >> (8 * b));
    }
  }
}

// Eight bf16 per thread (one 16-byte store). Element i's group is i / 128.
__global__ void fill_bf16_kernel(uint16_t* dst, size_t count, uint64_t seed) {
  const size_t vecs = (count + 7) / 8;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t v = blockIdx.x * size_t(blockDim.x) + threadIdx.x; v < vecs; v += stride) {
    const size_t first = v * 8;
    const uint64_t g = mix64(seed ^ (0xD1B54A32D192ED03ull * (first / 128 + 1)));
    const int group_exp = int(g % 21) - 10;  // [-10, 10]
    const uint64_t h0 = mix64(seed + 0x9E3779B97F4A7C15ull * (2 * v + 1));
    const uint64_t h1 = mix64(seed + 0x9E3779B97F4A7C15ull * (2 * v + 2));
    uint16_t out[8];
    for (int e = 0; e < 8; ++e) {
      const uint32_t bits = uint32_t((e < 4 ? h0 : h1) >> (16 * (e & 3))) & 0xFFFFu;
      const uint32_t mant = bits & 0x7Fu, sign = (bits >> 7) & 1u;
      const int exp = 127 + group_exp - int((bits >> 8) % 7u);  // biased, within [111, 137]: finite, normal
      out[e] = uint16_t((sign << 15) | (uint32_t(exp) << 7) | mant);
    }
    if (first + 8 <= count) {
      uint4 w;
      w.x = out[0] | (uint32_t(out[1]) << 16);
      w.y = out[2] | (uint32_t(out[3]) << 16);
      w.z = out[4] | (uint32_t(out[5]) << 16);
      w.w = out[6] | (uint32_t(out[7]) << 16);
      reinterpret_cast<uint4*>(dst)[v] = w;
    } else {
      for (size_t e = 0; first + e < count; ++e) dst[first + e] = out[e];
    }
  }
}

__global__ void fill_scales_kernel(float* dst, size_t count, uint64_t seed) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += stride) {
    const uint64_t h = mix64(seed + 0x9E3779B97F4A7C15ull * (i + 1));
    const float u = float(h >> 40) * (1.0f / 16777216.0f);  // [0, 1)
    dst[i] = exp2f(-8.0f + 4.0f * u);
  }
}

__global__ void copy2d_kernel(float* dst, int64_t ds0, int64_t ds1, const float* src, int64_t ss0, int64_t ss1,
                              int64_t rows, int64_t cols) {
  const int64_t total = rows * cols;
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t t = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; t < total; t += stride) {
    const int64_t i = t / cols, j = t % cols;
    dst[i * ds0 + j * ds1] = src[i * ss0 + j * ss1];
  }
}

unsigned grid_for(size_t work, unsigned threads) {
  const size_t blocks = (work + threads - 1) / threads;
  return unsigned(blocks < 1 ? 1 : (blocks > 65535 ? 65535 : blocks));
}

}  // namespace

void fill_e4m3(void* dst, size_t bytes, uint64_t seed, cudaStream_t stream) {
  if (!bytes) return;
  if (reinterpret_cast<uintptr_t>(dst) % 8) throw CudaError("fill_e4m3: destination not 8-byte aligned");
  fill_e4m3_kernel<<<grid_for(bytes / 8 + 1, 256), 256, 0, stream>>>(static_cast<uint8_t*>(dst), bytes, seed);
  BENCH_CUDA(cudaGetLastError());
}

void fill_bf16(void* dst, size_t count, uint64_t seed, cudaStream_t stream) {
  if (!count) return;
  if (reinterpret_cast<uintptr_t>(dst) % 16) throw CudaError("fill_bf16: destination not 16-byte aligned");
  fill_bf16_kernel<<<grid_for((count + 7) / 8, 256), 256, 0, stream>>>(static_cast<uint16_t*>(dst), count, seed);
  BENCH_CUDA(cudaGetLastError());
}

void fill_scales(float* dst, size_t count, uint64_t seed, cudaStream_t stream) {
  if (!count) return;
  fill_scales_kernel<<<grid_for(count, 256), 256, 0, stream>>>(dst, count, seed);
  BENCH_CUDA(cudaGetLastError());
}

void copy2d_f32(float* dst, int64_t dst_s0, int64_t dst_s1, const float* src, int64_t src_s0, int64_t src_s1,
                int64_t rows, int64_t cols, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  copy2d_kernel<<<grid_for(size_t(rows * cols), 256), 256, 0, stream>>>(dst, dst_s0, dst_s1, src, src_s0, src_s1,
                                                                        rows, cols);
  BENCH_CUDA(cudaGetLastError());
}

}  // namespace bench
