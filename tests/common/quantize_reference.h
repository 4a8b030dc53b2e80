// The CPU reference of blockfp8_quantize_1x128 (the formula in blockfp8.h, i.e. vLLM's
// per_token_group_quant_fp8 with group 128): plain float arithmetic on the host, written without the
// library's code and with its own e4m3 rounding (fp8.h) and power-of-two rounding (frexp).
#pragma once

#include <cstdint>
#include <vector>

#include "blockfp8/blockfp8.h"

namespace bf8test {

// One group's scale from its amax, exactly as specified (eps clamp, / 448, UE8M0 round-up).
float reference_group_scale(float amax, bool ue8m0);

// x: host copy of X, element (m, k) at x[m * ldx + k] of dtype t. Outputs are dense:
// q[m * k + kk] (e4m3 bytes), scales[m * (k / 128) + kb] (row-major).
void reference_quantize_1x128(int64_t m, int64_t k, const void* x, int64_t ldx, blockfp8_dtype_t t, bool ue8m0,
                              std::vector<uint8_t>& q, std::vector<float>& scales);

}  // namespace bf8test
