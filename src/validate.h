// Argument checking for the C ABI. Host-only and free of CUDA calls, so every rule is unit-tested
// without a GPU (tests/unit/test_validate.cpp).
#pragma once

#include "problem.h"

namespace blockfp8::detail {

// Checks every rule of the contract in blockfp8.h, in a fixed order (shape, dtype, pointers,
// strides, alignment, aliasing), and returns the first violated rule's status.
// M == 0 is valid; pointers of A, a_scale and C are then not inspected.
blockfp8_status_t validate(const Problem& p);

}  // namespace blockfp8::detail
