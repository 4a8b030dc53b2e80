// --quant: blockfp8_quantize_1x128 timed cold (inputs rotated over copies exceeding --l2-factor x L2)
// and hot at M in {1, 4, 32, 128, 4096}, K = 7168, bf16 input; bandwidth = bytes read + written.
// At the largest M the streaming floor (floor.cu) reads the same X copies in the same run, so the
// quantiser's bandwidth is also given as a fraction of the floor's (issue #7 asks >= 70 % of HBM's).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

#include "blockfp8/blockfp8.h"
#include "floor.h"
#include "inputs.h"
#include "runner.h"
#include "timing.h"

namespace bench {

int run_quant(Context& ctx) {
  const Options& o = ctx.opt;
  const int64_t K = 7168, kb = K / 128;
  const int64_t ms[] = {1, 4, 32, 128, 4096};
  struct Variant {
    const char* name;
    blockfp8_scale_format_t fmt;
    bool col_major;
  };
  const Variant variants[] = {{"fp32_row", BLOCKFP8_SCALE_FP32, false}, {"ue8m0_col", BLOCKFP8_SCALE_UE8M0, true}};
  const double l2_target = o.l2_factor * double(ctx.info.l2_bytes);
  const int max_copies = std::max(o.max_copies, 8192);  // tiny M needs thousands of copies to be cold
  std::printf(
      "| M | K | scales | copies | cold µs | hot µs | cold GB/s | hot GB/s "
      "|\n|---:|---:|---|---:|---:|---:|---:|---:|\n");
  const int64_t m_last = ms[std::size(ms) - 1];
  std::vector<std::pair<std::string, double>> largest;  // (scales, GB/s) at m_last
  double floor_gbps = 0;
  for (int64_t m : ms) {
    begin_point();  // timing.h: the two scale variants of one M are timed in one state
    const double bytes = double(m) * K * 2 + double(m) * K + 4.0 * double(m) * kb;  // read X, write X_q + scales
    const int copies = int(std::clamp(std::ceil(l2_target / bytes), 2.0, double(max_copies)));
    const size_t x_slot = round_up(size_t(m * K) * 2, 256), q_slot = round_up(size_t(m * K), 256),
                 s_slot = round_up(size_t(m * kb) * 4, 256);
    DeviceBuffer xbuf(x_slot * copies), qbuf(q_slot * copies), sbuf(s_slot * copies);
    // Random e4m3 bytes never contain 0x7f / 0xff, so as bf16 pairs they are all finite.
    fill_e4m3(xbuf.get(), x_slot * copies, tensor_seed(o.seed, 11, 0, uint64_t(m)), ctx.stream);
    BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
    for (const Variant& v : variants) {
      const int64_t ss_m = v.col_major ? 1 : kb, ss_k = v.col_major ? m : 1;
      auto enqueue = [&](int c, cudaStream_t s) {
        const blockfp8_status_t st = blockfp8_quantize_1x128(
            m, K, xbuf.get<uint8_t>() + x_slot * c, K, BLOCKFP8_DTYPE_BF16, qbuf.get<uint8_t>() + q_slot * c, K,
            reinterpret_cast<float*>(sbuf.get<uint8_t>() + s_slot * c), ss_m, ss_k, v.fmt, s);
        if (st != BLOCKFP8_SUCCESS)
          throw CudaError(std::string("blockfp8_quantize_1x128: ") + blockfp8_status_string(st));
      };
      Row r;
      r.backend = "quantize_1x128";
      r.config = std::string("bf16_") + v.name;
      r.shape_name = "quant";
      r.k = K;
      r.m = m;
      r.bytes = bytes;
      try {
        const ColdHot t = time_cold_hot(enqueue, copies, o.replays, ctx.stream);
        r.cold_us = t.cold_us;
        r.hot_us = t.hot_us;
        r.copies = t.copies;
        r.hot_calls = t.hot_calls;
        r.replays = o.replays;
        const double cold_gbps = bytes / (t.cold_us * 1e-6) / 1e9, hot_gbps = bytes / (t.hot_us * 1e-6) / 1e9;
        r.extra.push_back({"cold_gbps", cold_gbps});
        r.extra.push_back({"hot_gbps", hot_gbps});
        if (copies * bytes < l2_target) r.note = "not fully cold (copy cap)";
        if (m == m_last) largest.push_back({v.name, cold_gbps});
        std::printf("| %lld | %lld | %s | %d | %.2f | %.2f | %.0f | %.0f |\n", (long long)m, (long long)K, v.name,
                    copies, t.cold_us, t.hot_us, cold_gbps, hot_gbps);
      } catch (const CudaError& e) {
        recover_or_die(ctx.stream);
        r.error = e.what();
        std::printf("| %lld | %lld | %s | %d | error: %s | | | |\n", (long long)m, (long long)K, v.name, copies,
                    e.what());
      }
      std::fflush(stdout);
      ctx.json.write(r, ctx.info);
    }
    if (m != m_last) continue;
    // The floor on the same X copies, right after: a read-only stream of the bytes the quantiser reads.
    Row f;
    f.backend = "floor";
    f.shape_name = "quant_x";
    f.k = K;
    f.m = m;
    f.bytes = double(m * K) * 2;
    try {
      std::vector<const void*> srcs;
      for (int c = 0; c < copies; ++c) srcs.push_back(xbuf.get<uint8_t>() + x_slot * c);
      const FloorResult fr = measure_floor(srcs, size_t(m * K) * 2, ctx.info.sm_count, ctx.sink.get<unsigned>(),
                                           o.replays, ctx.stream);
      f.config = fr.best.name();
      f.cold_us = fr.cold_us;
      f.hot_us = fr.hot_us;
      f.copies = copies;
      f.replays = o.replays;
      floor_gbps = f.bytes / (fr.cold_us * 1e-6) / 1e9;
      f.extra.push_back({"cold_gbps", floor_gbps});
    } catch (const CudaError& e) {
      recover_or_die(ctx.stream);
      f.error = e.what();
    }
    ctx.json.write(f, ctx.info);
  }
  std::printf("\nGB/s = (2 + 1) bytes per element + 4 per 128: X read, X_q and scales written.\n");
  if (floor_gbps > 0) {
    std::printf("The streaming floor read the same X copies at %.0f GB/s in this run; the quantiser at M = %lld:",
                floor_gbps, (long long)m_last);
    for (const auto& [name, gbps] : largest) std::printf(" %s %.2fx,", name.c_str(), gbps / floor_gbps);
    std::printf(" of it (goal: >= 70%% of HBM bandwidth).\n");
  }
  return 0;
}

}  // namespace bench
