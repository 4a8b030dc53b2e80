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
