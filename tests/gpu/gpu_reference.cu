#include "gpu_reference.h"

#include "fp8.h"
#include "random.h"

namespace bf8test {
namespace {

__global__ void fill_e4m3_kernel(uint8_t* p, int64_t rows, int64_t cols, int64_t ld, uint64_t seed) {
  const int64_t total = rows * cols;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += int64_t(gridDim.x) * blockDim.x)
    p[(i / cols) * ld + i % cols] = random_e4m3(seed, uint64_t(i));
}

constexpr int kTile = 16;  // 16 x 16 outputs per block, one per thread

__global__ void __launch_bounds__(kTile * kTile) reference_kernel(const GemmOperands p, float* out) {
  __shared__ float As[128][kTile + 1];  // [k][row], decoded
  __shared__ float Bs[128][kTile + 1];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * kTile + tx;
  const int64_t m = int64_t(blockIdx.y) * kTile + ty, n = int64_t(blockIdx.x) * kTile + tx;
  // Staging: thread tid loads 8 consecutive bytes of row tid / 16 of each operand's tile.
  const int load_row = tid / kTile, load_k = (tid % kTile) * 8;
  const int64_t a_row = int64_t(blockIdx.y) * kTile + load_row, b_row = int64_t(blockIdx.x) * kTile + load_row;

  double acc = 0;
  for (int64_t kb = 0; kb < p.k / 128; ++kb) {
    for (int e = 0; e < 8; ++e) {
      const int64_t k = kb * 128 + load_k + e;
      As[load_k + e][load_row] = a_row < p.m ? e4m3_to_float(p.a[a_row * p.lda + k]) : 0.f;
      Bs[load_k + e][load_row] = b_row < p.n ? e4m3_to_float(p.b[b_row * p.ldb + k]) : 0.f;
    }
    __syncthreads();
    float block = 0;
    for (int k = 0; k < 128; ++k) block = fmaf(As[k][ty], Bs[k][tx], block);
    __syncthreads();
    if (m < p.m && n < p.n) {
      const double sa = p.a_scale[m * p.a_scale_stride_m + kb * p.a_scale_stride_k];
      const double sb = p.b_scale[(n / 128) * p.b_scale_stride_n + kb * p.b_scale_stride_k];
      acc += double(block) * sa * sb;
    }
  }
  if (m < p.m && n < p.n) out[m * p.n + n] = float(acc);
}

}  // namespace

cudaError_t fill_e4m3_device(uint8_t* p, int64_t rows, int64_t cols, int64_t ld, uint64_t seed, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return cudaSuccess;
  const int64_t blocks = (rows * cols + 255) / 256;
  fill_e4m3_kernel<<<unsigned(blocks < 65536 ? blocks : 65536), 256, 0, stream>>>(p, rows, cols, ld, seed);
  return cudaGetLastError();
}

cudaError_t gpu_reference_gemm(const GemmOperands& p, float* out, cudaStream_t stream) {
  if (p.m <= 0 || p.n <= 0) return cudaSuccess;
  if ((p.m + kTile - 1) / kTile > 65535) return cudaErrorInvalidValue;
  const dim3 grid(unsigned((p.n + kTile - 1) / kTile), unsigned((p.m + kTile - 1) / kTile));
  reference_kernel<<<grid, dim3(kTile, kTile), 0, stream>>>(p, out);
  return cudaGetLastError();
}

}  // namespace bf8test
