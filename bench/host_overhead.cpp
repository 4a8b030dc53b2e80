// --host-overhead: host time of one blockfp8_gemm call (argument checks, dispatch, tensor maps,
// launch), next to an empty kernel launch, both enqueued back to back without synchronising.
// This is what decode without CUDA graphs pays per layer before any Python binding.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "blockfp8/blockfp8.h"
#include "common.h"
#include "floor.h"
#include "inputs.h"
#include "runner.h"

namespace bench {

namespace {
template <class F>
double best_us_per_call(F&& call, cudaStream_t stream) {
  constexpr int kCalls = 200, kReps = 15;  // bursts too short to fill the launch queue
  double best = 1e30;
  for (int r = 0; r < kReps; ++r) {
    BENCH_CUDA(cudaStreamSynchronize(stream));
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kCalls; ++i) call();
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::micro>(t1 - t0).count() / kCalls);
  }
  BENCH_CUDA(cudaStreamSynchronize(stream));
  return best;
}
}  // namespace

int run_host_overhead(Context& ctx) {
  const int64_t m = 1, n = 2112, k = 7168, kb = k / 128, nb = ceil_div(n, 128);
  DeviceBuffer a(m * k), b(n * k), sa(m * kb * 4), sb(nb * kb * 4), c(m * n * 2);
  fill_e4m3(a.get(), m * k, 11, ctx.stream);
  fill_e4m3(b.get(), n * k, 12, ctx.stream);
  fill_scales(sa.get<float>(), m * kb, 13, ctx.stream);
  fill_scales(sb.get<float>(), nb * kb, 14, ctx.stream);
  auto gemm = [&] {
    return blockfp8_gemm(m, n, k, a.get(), k, sa.get<float>(), kb, 1, b.get(), k, sb.get<float>(), kb, 1, c.get(),
                         n, BLOCKFP8_DTYPE_BF16, ctx.stream);
  };
  // A call that fails is cheap (it returns before any launch): time only one that runs.
  if (const blockfp8_status_t st = gemm(); st != BLOCKFP8_SUCCESS) {
    std::fprintf(stderr, "blockfp8_gemm: %s\n", blockfp8_status_string(st));
    return 1;
  }
  const double t_gemm = best_us_per_call(gemm, ctx.stream);
  const double t_empty = best_us_per_call([&] { launch_empty(ctx.stream); }, ctx.stream);
  std::printf("host us per call (M=1, N=2112, K=7168): blockfp8_gemm %.2f | empty kernel launch %.2f\n", t_gemm,
              t_empty);
  return 0;
}

}  // namespace bench
