// The cuBLASLt peer: the same block-scaled FP8 GEMM through cuBLASLt's C API (CUDA >= 12.9, sm_90).
//
// cuBLASLt is column-major, so it computes D^T: its "A" is our weight (stored N x K row-major, i.e.
// K x N column-major, used transposed) with 128x128 block scales, its "B" is our activations (K x M
// column-major, not transposed) with 1x128 scales, and its D (N x M column-major, ld N) is exactly our
// row-major C. Its scale layouts differ from ours and are prepared once per problem, outside timing:
//   weight scales (BLK128x128_32F): K-major, column stride rounded up to a multiple of 4;
//   activation scales (VEC128_32F): token-major (M contiguous), i.e. the transpose of ours.
// cuBLASLt needs M and N to be multiples of 4: M is padded with zero rows (noted), N is refused.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>
#include <vector>

#include "common.h"

namespace bench {

class CublasLtPeer {
 public:
  CublasLtPeer();  // handle and a workspace allocated once for the whole run
  ~CublasLtPeer();
  CublasLtPeer(const CublasLtPeer&) = delete;
  CublasLtPeer& operator=(const CublasLtPeer&) = delete;

  static int version();

  // Builds descriptors, scale copies in cuBLASLt's layouts and (for M % 4) padded operands for every
  // copy of `ops`, asks the heuristic for up to `max_algos` algorithms and keeps those that run.
  // False (with *note) when cuBLASLt refuses the problem; nothing is thrown for a refusal.
  bool prepare(const Operands& ops, int max_algos, cudaStream_t stream, std::string* note);

  int algo_count() const;
  void select_algo(int i);
  std::string config() const;  // the selected algorithm, plus any padding note
  int64_t padded_m() const;

  void enqueue(int copy, cudaStream_t stream);  // throws on a cuBLASLt error
  const void* output(int copy) const;           // our-layout C of that copy (M x N, ld N)

 private:
  struct State;
  void* handle_ = nullptr;
  DeviceBuffer workspace_;
  std::unique_ptr<State> st_;
};

}  // namespace bench
