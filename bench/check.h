// Correctness of one computed C against the fp32 reference, on the device.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

namespace bench {

struct CheckResult {
  double rel_err = 0;       // max |C - ref| / max |ref| over the elements that were written
  double max_abs_err = 0;
  double max_ref = 0;
  uint64_t unwritten = 0;   // elements still holding the NaN poison (or any NaN)
  bool written() const { return unwritten == 0; }
};

// Fills C (m x n, row stride ldc, bf16) with the NaN pattern 0xFFFF so a skipped element shows
// (or with `byte` repeated: two outputs compared bitwise get different poisons).
void poison_bf16(void* c, int64_t ldc, int64_t m, int64_t n, cudaStream_t stream, uint8_t byte = 0xFF);

// Compares bf16 C (row stride ldc) with the fp32 reference (row stride n). Synchronises the stream.
CheckResult compare_bf16(const void* c, int64_t ldc, const float* ref, int64_t m, int64_t n, cudaStream_t stream);

// C (m x n bf16, row stride ldc) on the host, dense. Synchronises.
std::vector<uint16_t> fetch_bf16(const void* c, int64_t ldc, int64_t m, int64_t n, cudaStream_t stream);

// FNV-1a of C's bytes (m x n bf16, row stride ldc), for run-to-run bitwise comparison. Synchronises.
uint64_t hash_bf16(const void* c, int64_t ldc, int64_t m, int64_t n, cudaStream_t stream);

}  // namespace bench
