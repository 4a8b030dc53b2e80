// blockfp8-bench: cold/hot timings of the block-scaled FP8 GEMM against the weight-streaming floor
// and cuBLASLt, every point checked against the library's SIMT kernel. `--help` lists the options.
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "blockfp8/blockfp8.h"
#include "common.h"
#include "cublaslt_peer.h"
#include "floor.h"
#include "options.h"
#include "report.h"
#include "runner.h"
#include "timing.h"

int main(int argc, char** argv) {
  using namespace bench;
  Context ctx;
  ctx.opt = parse_options(argc, argv);
  set_settle(ctx.opt.settle_ms, ctx.opt.settle_min_us);
  ctx.info.settle_ms = ctx.opt.settle_ms;
  // A benchmark point (or special run) longer than BLOCKFP8_BENCH_TIMEOUT seconds (default 120) is a
  // device hang: exit 124 naming it, instead of spending the rest of a device session waiting.
  bf8test::Watchdog watchdog;
  ctx.watchdog = &watchdog;
  ctx.point_limit_s = bf8test::Watchdog::env_seconds("BLOCKFP8_BENCH_TIMEOUT", 120);
  watch(ctx, "start-up and special runs");
  const auto t0 = std::chrono::steady_clock::now();
  try {
    BENCH_CUDA(cudaSetDevice(ctx.opt.device));
    cudaDeviceProp prop{};
    BENCH_CUDA(cudaGetDeviceProperties(&prop, ctx.opt.device));
    int v = 0;
    ctx.info.gpu = prop.name;
    ctx.info.commit = ctx.opt.commit;
    ctx.info.date = utc_now_iso8601();
    BENCH_CUDA(cudaDeviceGetAttribute(&ctx.info.sm_count, cudaDevAttrMultiProcessorCount, ctx.opt.device));
    BENCH_CUDA(cudaDeviceGetAttribute(&v, cudaDevAttrL2CacheSize, ctx.opt.device));
    ctx.info.l2_bytes = v;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, ctx.opt.device) == cudaSuccess) ctx.info.sm_clock_khz = v;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, ctx.opt.device) == cudaSuccess)
      ctx.info.mem_clock_khz = v;
    cudaGetLastError();
    ctx.info.cublaslt_version = CublasLtPeer::version();
    ctx.info.blockfp8_version = blockfp8_version_string();
    for (int i = 0; i < argc; ++i) ctx.info.command += (i ? " " : "") + std::string(argv[i]);

    BENCH_CUDA(cudaStreamCreateWithFlags(&ctx.stream, cudaStreamNonBlocking));
    floor_init();
    ctx.sink = DeviceBuffer(floor_sink_words(ctx.info.sm_count) * sizeof(unsigned));
    if (!ctx.opt.json_path.empty() && !ctx.json.open(ctx.opt.json_path)) {
      std::fprintf(stderr, "cannot open %s for writing\n", ctx.opt.json_path.c_str());
      return 1;
    }
    std::fprintf(stderr, "%s, %d SMs, L2 %.1f MB, sm clock %d MHz, mem clock %d MHz; blockfp8 %s, cuBLASLt %d; commit %s\n",
                 ctx.info.gpu.c_str(), ctx.info.sm_count, ctx.info.l2_bytes / 1e6, ctx.info.sm_clock_khz / 1000,
                 ctx.info.mem_clock_khz / 1000, ctx.info.blockfp8_version.c_str(), ctx.info.cublaslt_version,
                 ctx.info.commit.c_str());
    if (prop.major != 9 || prop.minor != 0)
      std::fprintf(stderr, "warning: compute capability %d.%d; the library targets 9.0 only\n", prop.major, prop.minor);

    if (ctx.opt.floor_gb > 0) return run_floor_gb(ctx);
    if (ctx.opt.quant) return run_quant(ctx);
    if (ctx.opt.host_overhead) return run_host_overhead(ctx);

    if (ctx.opt.cublaslt) {
      try {
        ctx.lt = std::make_unique<CublasLtPeer>();
      } catch (const CudaError& e) {
        std::fprintf(stderr, "cuBLASLt unavailable (%s); continuing without it\n", e.what());
      }
    }
    std::printf("# blockfp8-bench — %s, commit %s, %s\n\n", ctx.info.gpu.c_str(), ctx.info.commit.c_str(),
                ctx.info.date.c_str());
    std::printf("cold = operands rotated over copies exceeding %.0f× L2; × floor = cold / streaming floor of N·K "
                "bytes; × cuBLASLt = cold / cuBLASLt cold (< 1: faster)\n\n",
                ctx.opt.l2_factor);
    if (ctx.opt.bf16a)
      std::printf("blockfp8_bf16a = blockfp8_gemm_bf16a from bf16 X (fp32 scale format), blockfp8_quant_gemm = "
                  "blockfp8_quantize_1x128 + blockfp8_gemm on the same X, M <= %lld; rel_err against the SIMT kernel "
                  "on the library's X_q; NOT BITWISE marks a bf16a output that differs from quant_gemm's\n\n",
                  (long long)ctx.opt.bf16a_max_m);
    ctx.table.header();
    if (ctx.opt.repeat_check) return run_repeat_check(ctx);

    const int total = int(ctx.opt.shapes.size());
    std::vector<Row> rows;
    for (int i = 0; i < total; ++i) {
      const Shape& s = ctx.opt.shapes[i];
      try {
        const std::vector<Row> shape_rows = run_shape(ctx, s, i + 1, total);
        rows.insert(rows.end(), shape_rows.begin(), shape_rows.end());
      } catch (const CudaError& e) {  // e.g. out of memory for this shape's copies: record, go on
        std::fprintf(stderr, "shape N=%lld K=%lld failed: %s\n", (long long)s.n, (long long)s.k, e.what());
        recover_or_die(ctx.stream);
        Row r;
        r.backend = "blockfp8";
        r.shape_name = s.name;
        r.n = s.n;
        r.k = s.k;
        r.error = std::string("shape setup failed: ") + e.what();
        emit(ctx, r);
      }
    }
    print_bf16a_summary(rows);  // blockfp8_bf16a vs blockfp8_quant_gemm, side by side
  } catch (const CudaError& e) {
    std::fprintf(stderr, "fatal: %s\n", e.what());
    return 2;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fprintf(stderr, "done in %.1f s\n", secs);
  return 0;
}
