// Probe: where one decode-kernel call spends its time, from timestamps the kernel itself records.
// Needs a library built with -DBLOCKFP8_TIMELINE=ON (the BLOCKFP8_MARK points of swapab_splitk.cu,
// swapab_warpmma.cu and tiled_gemm.cu; the plan says which kernel runs, and so whose marks are read).
// The call is timed as the benchmark times it (rotating weight copies in one CUDA graph, cold L2);
// the last call of the last replay leaves, per CTA, %globaltimer and clock64 at each mark, and this prints,
// per mark, when the CTAs reached it relative to the first CTA's entry (globaltimer) and relative
// to their own entry (clock64 at the SM clock).
//   decode_timeline N K M [bf16a]      e.g. decode_timeline 2112 7168 1
//   decode_timeline N K floor          the streaming-floor kernel on the same N x K bytes
// With TIMELINE_REPEATS=R it then times the call R more times and reports, per SM (%smid), how late its
// CTA ended the math (the floor: its first pass) against the median CTA, averaged over the R calls,
// and how often it was among the latest quarter: whether the same SMs are late from call to call.
// bf16a: time blockfp8_gemm_bf16a from bf16 X (the fused kernel where it serves) instead of blockfp8_gemm;
// where it takes two launches, the quantiser's marks follow the GEMM's, on the same clock
// (BLOCKFP8_BF16A_QUANT_PDL=0/1 forces its launch without or with PDL).
// With TIMELINE_CONFIG=NAME (a benchmark --config name, e.g. swapab_r16_t16_s1_w2_k4_p0) the fp8 call runs
// that forced configuration instead of the dispatcher's; TIMELINE_LAST_COPY=c reads the call on weight copy c.
// floor: the benchmark's fastest ldg floor candidate (chosen here as the benchmark chooses), whose
// marks are entry, thread 0's first pass of loads landed, exit: what the decode kernels' start costs
// beyond the DRAM latency and queueing that any reader of these bytes pays.
#include <cuda_runtime.h>

#include <algorithm>
#include <iterator>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "blockfp8/blockfp8.h"
#include "common.h"
#include "floor.h"
#include "inputs.h"
#include "options.h"  // parse_config_name
#include "kernels/timeline.cuh"  // kTimelineMarks, kTimelineCtas: the rows the kernels record
#include "timing.h"

namespace blockfp8::detail {  // BLOCKFP8_TIMELINE builds
int read_timeline(unsigned long long* host, int ctas);          // swapab_splitk.cu
int read_warpmma_timeline(unsigned long long* host, int ctas);  // swapab_warpmma.cu
int read_tiled_timeline(unsigned long long* host, int ctas);    // tiled_gemm.cu
int read_quantize_timeline(unsigned long long* host, int ctas); // quantize_1x128.cu
}

constexpr int kMarks = blockfp8::detail::kTimelineMarks, kMaxCtas = blockfp8::detail::kTimelineCtas;
constexpr int kRow = blockfp8::detail::kTimelineRowWords;  // 2 x kMarks stamps, then the SM id
const char* kMarkNames[kMarks] = {"entry",        "producer may load", "first tile's loads issued",
                                  "scales loaded", "math done (wg0)",   "all ranks parked",
                                  "stored",        "exit",              "first stage landed (wg0)",
                                  "barriers initialised", "producer set up",
                                  "first slot back (producer)", "mid stage landed (wg0)",
                                  "mid stage issued (producer)", "mid stage wait begins (wg0)",
                                  "mid stage wgmma issued (wg0)", "mid stage released (wg0)",
                                  "mid stage promoted (wg0)", "last consumer stored"};
// The quantiser's marks (bf16a with two launches; thread 0 of each CTA).
const char* kQuantMarkNames[] = {"quantiser entry", "quantiser: preceding grid done", "quantiser: first X landed",
                                  "quantiser: last stores issued"};
const char* kFloorMarkNames[kMarks] = {"entry", "first pass landed (thread 0)", "exit", "", "", "", "", "", "", "", "",
                                       "", "", "", "", "", "", ""};
const char* kWarpMmaMarkNames[kMarks] = {"entry", "preceding grid done", "ring's first copies issued",
                                         "first k-block landed (warp 0)", "math done (warp 0)",
                                         "math done (all warps)", "exit", "partials in shared memory", "thread 0's first sum",
                                         "", "", "", "", "", "", "", "", ""};

// The tiled kernel's marks (thread 0 of the CTA unless named; math marks: the last tile's).
const char* kTiledMarkNames[kMarks] = {"entry", "preceding grid done", "producer's last load issued",
                                       "first stage landed (wg0)", "math done (wg0)", "all ranks parked (split)",
                                       "stores issued", "exit", "first stage issued (producer)",
                                       "parked (split)", "TMA thread past setmaxnreg", "TMA thread's work set",
                                       "TMA thread's first tile set", "math thread 0 past setmaxnreg",
                                       "thread 0's barriers initialised", "set-up barrier passed", "", ""};

int main(int argc, char** argv) try {
  using bench::DeviceBuffer;
  if (argc < 4) {
    std::printf("usage: decode_timeline N K M [bf16a]\n");
    return 2;
  }
  const bool floor_mode = std::string(argv[3]) == "floor";
  const int64_t n = atoll(argv[1]), k = atoll(argv[2]), m = floor_mode ? 1 : atoll(argv[3]);
  const bool bf16a = argc > 4 && std::string(argv[4]) == "bf16a";
  const int copies = 16;
  const int64_t kb = k / 128, nb = (n + 127) / 128;
  cudaStream_t st;
  BENCH_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));

  // The benchmark's inputs: weight copies with their scales, one A (fp8 or bf16), one C.
  std::vector<DeviceBuffer> b, bs;
  for (int i = 0; i < copies; ++i) {
    b.emplace_back(size_t(n * k));
    bs.emplace_back(size_t(nb * kb) * 4);
    bench::fill_e4m3(b[i].get(), size_t(n * k), bench::tensor_seed(1, 1, i), st);
    bench::fill_scales(bs[i].get<float>(), size_t(nb * kb), bench::tensor_seed(1, 2, i), st);
  }
  DeviceBuffer a(size_t(m * k)), as(size_t(m * kb) * 4), x(size_t(m * k) * 2), c(size_t(m * n) * 2);
  bench::fill_e4m3(a.get(), size_t(m * k), bench::tensor_seed(1, 3, 0), st);
  bench::fill_scales(as.get<float>(), size_t(m * kb), bench::tensor_seed(1, 4, 0), st);
  bench::fill_bf16(x.get(), size_t(m * k), bench::tensor_seed(1, 5, 0), st);
  size_t ws_bytes = 0;
  if (blockfp8_gemm_bf16a_workspace_size(m, n, k, x.get(), k, BLOCKFP8_DTYPE_BF16, b[0].get(), k, &ws_bytes) !=
      BLOCKFP8_SUCCESS)
    return 1;
  DeviceBuffer ws(ws_bytes);

  blockfp8_config_t cfg{};
  char name[128] = "?";
  const char* forced_env = std::getenv("TIMELINE_CONFIG");
  const bool forced = forced_env && *forced_env && !bf16a;
  if (forced ? bench::parse_config_name(forced_env, &cfg) : blockfp8_gemm_plan(m, n, k, &cfg) == BLOCKFP8_SUCCESS)
    blockfp8_config_name(&cfg, name, sizeof name);
  else if (forced)
    throw bench::CudaError(std::string("TIMELINE_CONFIG: not a configuration name: ") + forced_env);

  auto call = [&](int i, cudaStream_t s) {
    const blockfp8_status_t r =
        bf16a ? blockfp8_gemm_bf16a(m, n, k, x.get(), k, BLOCKFP8_DTYPE_BF16, b[i].get(), k, bs[i].get<float>(), kb,
                                    1, c.get(), n, BLOCKFP8_DTYPE_BF16, BLOCKFP8_SCALE_FP32, ws.get(), ws_bytes, s)
              : blockfp8_gemm_ex(m, n, k, a.get(), k, as.get<float>(), kb, 1, b[i].get(), k, bs[i].get<float>(), kb, 1,
                                 c.get(), n, BLOCKFP8_DTYPE_BF16, forced ? &cfg : nullptr, s);
    if (r != BLOCKFP8_SUCCESS) throw bench::CudaError(std::string("blockfp8 call: ") + blockfp8_status_string(r));
  };
  // TIMELINE_LAST_COPY=c: the weight copy of the call whose stamps are read (default: the last, 15); the
  // others rotate ahead of it. Whether a pattern by tile follows the weight's addresses.
  const char* last_env = std::getenv("TIMELINE_LAST_COPY");
  const int last_copy = last_env ? std::max(0, std::min(copies - 1, std::atoi(last_env))) : copies - 1;
  std::vector<int> order(copies);
  for (int i = 0; i < copies; ++i) order[i] = (last_copy + 1 + i) % copies;
  int dev;
  BENCH_CUDA(cudaGetDevice(&dev));
  int sm_count;
  BENCH_CUDA(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, dev));
  DeviceBuffer sink(bench::floor_sink_words(sm_count) * 4);
  bench::FloorConfig floor_cfg;
  if (floor_mode) {  // the benchmark's choice of floor kernel, then timed again below for its marks
    bench::floor_init();
    std::vector<const void*> srcs;
    for (auto& w : b) srcs.push_back(w.get());
    // The fastest ldg candidate (the kind with marks; the benchmark's floor is the fastest of all).
    double best = 1e30;
    for (const auto& tr : bench::measure_floor(srcs, size_t(n * k), sm_count, sink.get<unsigned>(), 15, st).trials)
      if (tr.cfg.kind == bench::FloorConfig::ldg && tr.cold_us < best) best = tr.cold_us, floor_cfg = tr.cfg;
    std::snprintf(name, sizeof name, "floor %s", floor_cfg.name().c_str());
  }
  auto floor_call = [&](int i, cudaStream_t s) {
    bench::launch_floor(floor_cfg, b[i].get(), size_t(n * k), sm_count, sink.get<unsigned>(), s);
  };
  if (!floor_mode) call(0, st);  // first-use work (shared-memory limit, occupancy, tensor maps) outside the capture
  BENCH_CUDA(cudaStreamSynchronize(st));
  // Timed as the benchmark times it; the stamps left behind are those of the last call of the last replay.
  const double per_call_us = floor_mode ? bench::time_graph(floor_call, order, 15, st).median_us
                                        : bench::time_graph(call, order, 15, st).median_us;

  std::vector<unsigned long long> tl(size_t(kMaxCtas) * kRow);
  const bool warpmma = cfg.kernel == BLOCKFP8_KERNEL_WARP_MMA, tiled = cfg.kernel == BLOCKFP8_KERNEL_TILED;
  const char* const* names = floor_mode ? kFloorMarkNames : warpmma ? kWarpMmaMarkNames : tiled ? kTiledMarkNames : kMarkNames;
  // The latest call's CTAs: a CTA recorded in it has an entry stamp newer than any stamp of earlier
  // calls, so keep CTAs whose entry is within 50 us of the latest entry. t0: the first entry.
  std::vector<int> ctas;
  unsigned long long t0 = ~0ull;
  auto read = [&]() {
    const int got = floor_mode ? bench::read_floor_timeline(tl.data(), kMaxCtas)
                    : warpmma  ? blockfp8::detail::read_warpmma_timeline(tl.data(), kMaxCtas)
                    : tiled    ? blockfp8::detail::read_tiled_timeline(tl.data(), kMaxCtas)
                               : blockfp8::detail::read_timeline(tl.data(), kMaxCtas);
    ctas.clear();
    t0 = ~0ull;
    if (got <= 0) return false;
    unsigned long long latest = 0;
    for (int i = 0; i < got; ++i) latest = std::max(latest, tl[size_t(i) * kRow]);
    for (int i = 0; i < got; ++i)
      if (tl[size_t(i) * kRow] + 50000 > latest) ctas.push_back(i);
    for (int i : ctas) t0 = std::min(t0, tl[size_t(i) * kRow]);
    return true;
  };
  if (!read()) {
    std::printf("no timeline: is the library built with -DBLOCKFP8_TIMELINE=ON?\n");
    return 1;
  }
  int clock_khz;
  BENCH_CUDA(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev));
  const double ns_per_cycle = 1e6 / clock_khz;

  std::printf("decode_timeline N=%lld K=%lld M=%lld %s plan %s  %zu CTAs  cold %.2f us per call (median of 15)\n",
              (long long)n, (long long)k, (long long)m, bf16a ? "bf16a" : "fp8", name, ctas.size(), per_call_us);
  std::printf("%-28s %8s %8s %8s   %8s %8s  (ns; left: globaltimer from the first entry, right: clock64 from "
              "the CTA's own entry)\n",
              "mark", "min", "median", "max", "median", "max");
  for (int mk = 0; mk < kMarks; ++mk) {
    std::vector<double> g, own;
    for (int i : ctas) {
      const unsigned long long* r = &tl[size_t(i) * kRow];
      if (r[mk] == 0 || r[mk] < r[0]) continue;  // not reached in this call (e.g. a CTA without tiles)
      g.push_back(double(r[mk] - t0));
      own.push_back(double(int64_t(r[kMarks + mk] - r[kMarks])) * ns_per_cycle);
    }
    if (g.empty()) continue;
    std::sort(g.begin(), g.end());
    std::sort(own.begin(), own.end());
    std::printf("%-28s %8.0f %8.0f %8.0f   %8.0f %8.0f  (%zu CTAs)\n", names[mk], g.front(), g[g.size() / 2],
                g.back(), own[own.size() / 2], own.back(), g.size());
  }

  // bf16a in two launches: the quantiser's marks on the same clock (from the GEMM's first entry; negative:
  // before it), its latest call's CTAs as above.
  if (bf16a && ws_bytes > 0) {
    std::vector<unsigned long long> qt(size_t(kMaxCtas) * kRow);
    const int got = blockfp8::detail::read_quantize_timeline(qt.data(), kMaxCtas);
    unsigned long long latest = 0;
    for (int i = 0; i < got; ++i) latest = std::max(latest, qt[size_t(i) * kRow]);
    for (int mk = 0; mk < int(std::size(kQuantMarkNames)); ++mk) {
      std::vector<double> g;
      for (int i = 0; i < got; ++i) {
        const unsigned long long* r = &qt[size_t(i) * kRow];
        if (r[0] + 50000 <= latest || r[mk] == 0 || r[mk] < r[0]) continue;
        g.push_back(double(int64_t(r[mk] - t0)));
      }
      if (g.empty()) continue;
      std::sort(g.begin(), g.end());
      std::printf("%-28s %8.0f %8.0f %8.0f   (%zu CTAs)\n", kQuantMarkNames[mk], g.front(), g[g.size() / 2], g.back(),
                  g.size());
    }
  }

  // Late SMs over repeated calls: the mark where the math (the floor: its first pass) ends.
  const char* repeats_env = std::getenv("TIMELINE_REPEATS");
  const int repeats = repeats_env ? std::atoi(repeats_env) : 0;
  if (repeats <= 0) return 0;
  const int end_mark = floor_mode ? 1 : warpmma ? 5 : 4;
  std::vector<double> late_sum(size_t(sm_count), 0.0);
  std::vector<int> seen(size_t(sm_count), 0), in_last_quarter(size_t(sm_count), 0);
  // The same per CTA (its row: the tile and K slice it owns, i.e. which bytes it reads), with the SMs it
  // ran on: lateness that follows the CTA across placements is the data's, lateness that follows the
  // SM is the hardware's.
  std::vector<double> cta_late(size_t(kMaxCtas), 0.0);
  std::vector<int> cta_seen(size_t(kMaxCtas), 0);
  std::vector<std::vector<unsigned>> cta_sms(static_cast<size_t>(kMaxCtas));
  for (int rep = 0; rep < repeats; ++rep) {
    if (floor_mode)
      bench::time_graph(floor_call, order, 3, st);
    else
      bench::time_graph(call, order, 3, st);
    if (!read()) return 1;
    std::vector<std::pair<double, unsigned>> ends;  // (end - first entry, SM)
    std::vector<std::pair<int, double>> cta_end;   // (CTA, end - first entry)
    for (int i : ctas) {
      const unsigned long long* r = &tl[size_t(i) * kRow];
      if (r[end_mark] == 0 || r[end_mark] < r[0] || r[2 * kMarks] >= unsigned(sm_count)) continue;
      ends.push_back({double(r[end_mark] - t0), unsigned(r[2 * kMarks])});
      cta_end.push_back({i, double(r[end_mark] - t0)});
      auto& sms = cta_sms[size_t(i)];
      if (std::find(sms.begin(), sms.end(), unsigned(r[2 * kMarks])) == sms.end()) sms.push_back(unsigned(r[2 * kMarks]));
    }
    if (ends.empty()) continue;
    std::sort(ends.begin(), ends.end());
    const double median = ends[ends.size() / 2].first;
    for (const auto& [i, e] : cta_end) cta_late[size_t(i)] += e - median, ++cta_seen[size_t(i)];
    for (size_t j = 0; j < ends.size(); ++j) {
      const unsigned sm = ends[j].second;
      late_sum[sm] += ends[j].first - median, ++seen[sm];
      if (4 * j >= 3 * ends.size()) ++in_last_quarter[sm];
    }
  }
  std::vector<std::pair<double, int>> mean;  // (mean lateness, SM)
  for (int sm = 0; sm < sm_count; ++sm)
    if (seen[sm]) mean.push_back({late_sum[sm] / seen[sm], sm});
  std::sort(mean.rbegin(), mean.rend());
  std::printf("\n'%s' per SM over %d calls, ns after the median CTA (mean), and calls among the latest quarter:\n",
              names[end_mark], repeats);
  for (size_t j = 0; j < mean.size(); ++j) {
    if (j == 12 && mean.size() > 16) {  // the latest 12 and the earliest 4
      std::printf("  ...\n");
      j = mean.size() - 4;
    }
    const int sm = mean[j].second;
    std::printf("  SM %3d  %+7.0f ns  %d of %d calls in the latest quarter (%d CTAs seen)\n", sm, mean[j].first,
                in_last_quarter[size_t(sm)], repeats, seen[size_t(sm)]);
  }
  std::printf("\nper CTA (its row of the grid), ns after the median CTA (mean over the calls), and the SMs it ran on:\n");
  for (int i = 0; i < kMaxCtas; ++i) {
    if (!cta_seen[size_t(i)]) continue;
    std::printf("  CTA %4d  %+7.0f ns  SMs", i, cta_late[size_t(i)] / cta_seen[size_t(i)]);
    for (unsigned sm : cta_sms[size_t(i)]) std::printf(" %u", sm);
    std::printf("\n");
  }
  return 0;
} catch (const std::exception& e) {
  std::printf("decode_timeline: %s\n", e.what());
  return 1;
}
