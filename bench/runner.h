// The measurement loop: per shape, the floor and the empty kernel, then per M the reference, the
// cuBLASLt peer and every blockfp8 path asked for, each checked and timed cold and hot.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common.h"
#include "cublaslt_peer.h"
#include "options.h"
#include "report.h"
#include "shapes.h"
#include "watchdog.h"  // tests/common: shared with the GPU tests

namespace bench {

struct Context {
  Options opt;
  // Ends the process naming the point when one outlives its limit (a device hang): see watch().
  bf8test::Watchdog* watchdog = nullptr;
  double point_limit_s = 120;
  RunInfo info;
  cudaStream_t stream = nullptr;
  JsonLines json;
  MarkdownTable table;
  std::unique_ptr<CublasLtPeer> lt;
  DeviceBuffer sink;
  bool hash_outputs = false;
  std::vector<std::pair<std::string, double>> run_tag;  // extra fields on every row (e.g. repeat index)
};

// Arms the watchdog (if any) for the next step, named `what`.
inline void watch(Context& ctx, const std::string& what) {
  if (ctx.watchdog) ctx.watchdog->arm("blockfp8-bench: " + what, ctx.point_limit_s);
}

// Emits (JSON line + table row) and returns every point of one shape. Throws CudaError only when the
// shape cannot be set up at all (e.g. its copies do not fit in memory).
std::vector<Row> run_shape(Context& ctx, const Shape& shape, int index, int total);

// --floor-gb: the floor on one large buffer; prints the variants' TB/s. Returns the exit status.
int run_floor_gb(Context& ctx);

// --quant: the activation quantiser (bench/quant.cpp), cold and hot GB/s per M. Returns the exit status.
int run_quant(Context& ctx);

// --host-overhead (bench/host_overhead.cpp): host µs per blockfp8_gemm call vs an empty launch.
int run_host_overhead(Context& ctx);

// --repeat-check: the primary shape twice; prints timing agreement and output identity.
int run_repeat_check(Context& ctx);

// After a failed point: a launch or argument error leaves the context usable, a fault does not
// (then it exits, the results so far being on disk already).
void recover_or_die(cudaStream_t stream);

// Writes a row to the JSON Lines file and the table.
void emit(Context& ctx, const Row& r);

}  // namespace bench
