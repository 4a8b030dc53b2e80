// The SIMT kernel: block-scaled FP8 GEMM on plain CUDA cores. It reads A and B a byte at a time,
// so it serves any pointer alignment and any lda/ldb that the TMA kernels cannot take, and it
// shares no code with them, which makes it a useful second opinion in the benchmark.
// 64x64 output tile per CTA, 16x16 threads, 4x4 outputs per thread, k staged 32 at a time.
#include <cuda_fp8.h>

#include <algorithm>

#include "kernels/launch.h"
#include "kernels/store_out.cuh"

namespace blockfp8::detail {
namespace {

constexpr int kTile = 64;
constexpr int kKStep = 32;

struct Params {
  int64_t m, n, k;
  int64_t m_base;
  const uint8_t* a;
  int64_t lda;
  const float* a_scale;
  int64_t sa_m, sa_k;
  const uint8_t* b;
  int64_t ldb;
  const float* b_scale;
  int64_t sb_n, sb_k;
  void* c;
  int64_t ldc;
  int c_dtype;
};

__device__ __forceinline__ float e4m3_to_float(uint8_t v) {
  __nv_fp8_e4m3 x;
  x.__x = v;
  return float(x);
}

__global__ void __launch_bounds__(256) simt_gemm_kernel(const Params p) {
  __shared__ float As[kKStep][kTile + 1];
  __shared__ float Bs[kKStep][kTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int64_t n0 = int64_t(blockIdx.x) * kTile;
  const int64_t m0 = p.m_base + int64_t(blockIdx.y) * kTile;

  float acc[4][4] = {};
  for (int64_t kb = 0; kb < p.k / 128; ++kb) {
    float part[4][4] = {};
    for (int k0 = 0; k0 < 128; k0 += kKStep) {
      // Each thread stages 8 bytes of each operand: row (tid / 4), k offsets 8 * (tid % 4) + 0..7.
      const int r = threadIdx.x / 4, kc = 8 * (threadIdx.x % 4);
      const int64_t kg = kb * 128 + k0 + kc;
#pragma unroll
      for (int e = 0; e < 8; ++e) {
        As[kc + e][r] = (m0 + r < p.m) ? e4m3_to_float(p.a[(m0 + r) * p.lda + kg + e]) : 0.f;
        Bs[kc + e][r] = (n0 + r < p.n) ? e4m3_to_float(p.b[(n0 + r) * p.ldb + kg + e]) : 0.f;
      }
      __syncthreads();
#pragma unroll 8
      for (int kk = 0; kk < kKStep; ++kk) {
        float av[4], bv[4];
#pragma unroll
        for (int i = 0; i < 4; ++i) av[i] = As[kk][ty + 16 * i], bv[i] = Bs[kk][tx + 16 * i];
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
          for (int j = 0; j < 4; ++j) part[i][j] = fmaf(av[i], bv[j], part[i][j]);
      }
      __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int64_t m = m0 + ty + 16 * i;
      const float sa = m < p.m ? p.a_scale[m * p.sa_m + kb * p.sa_k] : 0.f;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int64_t n = n0 + tx + 16 * j;
        const float sb = n < p.n ? p.b_scale[(n / 128) * p.sb_n + kb * p.sb_k] : 0.f;
        acc[i][j] = fmaf(part[i][j], sa * sb, acc[i][j]);
      }
    }
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int64_t m = m0 + ty + 16 * i;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int64_t n = n0 + tx + 16 * j;
      if (m >= p.m || n >= p.n) continue;
      store_out(p.c, m * p.ldc + n, acc[i][j], p.c_dtype);
    }
  }
}

}  // namespace

blockfp8_status_t launch_simt_gemm(const Problem& p, cudaStream_t stream) {
  Params prm{p.m, p.n, p.k, 0, static_cast<const uint8_t*>(p.a), p.lda, p.a_scale, p.a_scale_stride_m,
             p.a_scale_stride_k, static_cast<const uint8_t*>(p.b), p.ldb, p.b_scale, p.b_scale_stride_n,
             p.b_scale_stride_k, p.c, p.ldc, int(p.c_dtype)};
  const int64_t n_tiles = (p.n + kTile - 1) / kTile;
  const int64_t m_tiles = (p.m + kTile - 1) / kTile;
  constexpr int64_t kMaxGridY = 65535;
  for (int64_t y0 = 0; y0 < m_tiles; y0 += kMaxGridY) {
    prm.m_base = y0 * kTile;
    const dim3 grid(unsigned(n_tiles), unsigned(std::min(kMaxGridY, m_tiles - y0)));
    simt_gemm_kernel<<<grid, 256, 0, stream>>>(prm);
    if (cudaGetLastError() != cudaSuccess) return BLOCKFP8_ERROR_CUDA;
  }
  return BLOCKFP8_SUCCESS;
}

}  // namespace blockfp8::detail
