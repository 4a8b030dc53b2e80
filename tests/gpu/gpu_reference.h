// Device-side test helpers: random fills and a plain-CUDA reference GEMM for shapes too large for
// the CPU reference. Independent of the library (own e4m3 decoding, no tensor cores, no TMA).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "reference.h"

namespace bf8test {

// Fills the rows x cols e4m3 matrix at p (row stride ld) with random_e4m3(seed, r * cols + c);
// bytes between rows are left as they are.
cudaError_t fill_e4m3_device(uint8_t* p, int64_t rows, int64_t cols, int64_t ld, uint64_t seed, cudaStream_t stream);

// out[m * n + j] (device, dense M x N, fp32): one thread per output, each 128-long k-block summed in
// fp32, the scaled block sums accumulated in double. Operand pointers are device pointers.
cudaError_t gpu_reference_gemm(const GemmOperands& p, float* out, cudaStream_t stream);

}  // namespace bf8test
