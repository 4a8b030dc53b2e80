// Argument checking for the C ABI. Host-only and free of CUDA calls, so every rule is unit-tested
// without a GPU (tests/unit/test_validate.cpp).
#pragma once

#include "problem.h"

namespace blockfp8::detail {

// The shape rules every entry point shares: 0 <= M, 1 <= N, 1 <= K, each below 2^31
// (BLOCKFP8_ERROR_INVALID_SHAPE), and K a multiple of 128 (BLOCKFP8_ERROR_K_NOT_MULTIPLE_OF_128).
blockfp8_status_t validate_shape(int64_t m, int64_t n, int64_t k);

// Checks every rule of the contract in blockfp8.h, in a fixed order (shape, dtype, pointers,
// strides, alignment, aliasing), and returns the first violated rule's status.
// M == 0 is valid; pointers of A, a_scale and C are then not inspected.
blockfp8_status_t validate(const Problem& p);

// The quantiser's contract (blockfp8.h, blockfp8_quantize_1x128), same order: shape, dtype and scale
// format, pointers, strides, byte extents, alignment, aliasing. M == 0 is valid and checks no pointer.
blockfp8_status_t validate_quantize(const QuantizeProblem& q);

// blockfp8_gemm_bf16a (blockfp8.h): B, b_scale, C as for the GEMM, X as for the quantiser, and the
// workspace (when given) overlapping nothing. p.a and p.a_scale are ignored.
blockfp8_status_t validate_fused(const Problem& p, const FusedA& x);

}  // namespace blockfp8::detail
