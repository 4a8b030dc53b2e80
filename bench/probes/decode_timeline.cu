// Probe: where one decode-kernel call spends its time, from timestamps the kernel itself records.
// Needs a library built with -DBLOCKFP8_TIMELINE=ON (swapab_splitk.cu's BLOCKFP8_MARK points).
// The call is timed as the benchmark times it (rotating weight copies in one CUDA graph, cold L2);
// then one more replay records, per CTA, %globaltimer and clock64 at each mark, and this prints,
// per mark, when the CTAs reached it relative to the first CTA's entry (globaltimer) and relative
// to their own entry (clock64 at the SM clock).
//   decode_timeline N K M [bf16a]      e.g. decode_timeline 2112 7168 1
// bf16a: time blockfp8_gemm_bf16a from bf16 X (the fused kernel where it serves) instead of blockfp8_gemm.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "blockfp8/blockfp8.h"

namespace blockfp8::detail {
int read_timeline(unsigned long long* host, int ctas);  // swapab_splitk.cu, BLOCKFP8_TIMELINE builds
}

#define CK(x)                                                                              \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

constexpr int kMarks = 12, kMaxCtas = 1024;
const char* kMarkNames[kMarks] = {"entry",        "producer may load", "first tile's loads issued",
                                  "scales loaded", "math done (wg0)",   "all ranks parked",
                                  "stored",        "exit",              "first stage landed (wg0)",
                                  "barriers initialised", "producer set up", "-"};

static std::vector<uint8_t> random_fp8(size_t n, std::mt19937& rng) {
  // e4m3 with exponent field 1..13 and random sign/mantissa: finite, no NaN, no denormals.
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = uint8_t((rng() & 0x87) | ((1 + rng() % 13) << 3));
  return v;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    std::printf("usage: decode_timeline N K M [bf16a]\n");
    return 2;
  }
  const int64_t n = atoll(argv[1]), k = atoll(argv[2]), m = atoll(argv[3]);
  const bool bf16a = argc > 4 && std::string(argv[4]) == "bf16a";
  const int copies = 16;
  std::mt19937 rng(7);
  const int64_t kb = k / 128, nb = (n + 127) / 128;

  std::vector<void*> b(copies);
  std::vector<float*> bs(copies);
  for (int i = 0; i < copies; ++i) {
    const auto hb = random_fp8(size_t(n * k), rng);
    std::vector<float> hs(size_t(nb * kb));
    for (auto& s : hs) s = 0.5f + float(rng() % 1000) / 1000.f;
    CK(cudaMalloc(&b[i], hb.size()));
    CK(cudaMemcpy(b[i], hb.data(), hb.size(), cudaMemcpyHostToDevice));
    CK(cudaMalloc(&bs[i], hs.size() * 4));
    CK(cudaMemcpy(bs[i], hs.data(), hs.size() * 4, cudaMemcpyHostToDevice));
  }
  const auto ha = random_fp8(size_t(m * k), rng);
  std::vector<float> has(size_t(m * kb));
  for (auto& s : has) s = 0.01f + float(rng() % 1000) / 1e5f;
  void *a, *c;
  float* as;
  CK(cudaMalloc(&a, ha.size()));
  CK(cudaMemcpy(a, ha.data(), ha.size(), cudaMemcpyHostToDevice));
  CK(cudaMalloc(&as, has.size() * 4));
  CK(cudaMemcpy(as, has.data(), has.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMalloc(&c, size_t(m * n * 2)));
  std::vector<__nv_bfloat16> hx(size_t(m * k));
  for (auto& v : hx) v = __float2bfloat16(float(int(rng() % 2001) - 1000) / 300.f);
  void* x;
  CK(cudaMalloc(&x, hx.size() * 2));
  CK(cudaMemcpy(x, hx.data(), hx.size() * 2, cudaMemcpyHostToDevice));
  size_t ws_bytes = 0;
  void* ws = nullptr;
  if (blockfp8_gemm_bf16a_workspace_size(m, n, k, x, k, BLOCKFP8_DTYPE_BF16, b[0], k, &ws_bytes) != BLOCKFP8_SUCCESS)
    return 1;
  if (ws_bytes) CK(cudaMalloc(&ws, ws_bytes));

  blockfp8_config_t cfg{};
  char name[128] = "?";
  if (blockfp8_gemm_plan(m, n, k, &cfg) == BLOCKFP8_SUCCESS) blockfp8_config_name(&cfg, name, sizeof name);

  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  auto call = [&](int i) {
    const blockfp8_status_t s =
        bf16a ? blockfp8_gemm_bf16a(m, n, k, x, k, BLOCKFP8_DTYPE_BF16, b[i], k, bs[i], kb, 1, c, n, BLOCKFP8_DTYPE_BF16,
                                    BLOCKFP8_SCALE_FP32, ws, ws_bytes, st)
              : blockfp8_gemm(m, n, k, a, k, as, kb, 1, b[i], k, bs[i], kb, 1, c, n, BLOCKFP8_DTYPE_BF16, st);
    if (s != BLOCKFP8_SUCCESS) {
      std::printf("blockfp8_gemm: %s\n", blockfp8_status_string(s));
      std::exit(1);
    }
  };
  for (int i = 0; i < copies; ++i) call(i);
  CK(cudaStreamSynchronize(st));
  cudaGraph_t g;
  cudaGraphExec_t ge;
  CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < copies; ++i) call(i);
  CK(cudaStreamEndCapture(st, &g));
  CK(cudaGraphInstantiate(&ge, g, 0));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<float> per_call;
  for (int r = 0; r < 15; ++r) {
    CK(cudaEventRecord(e0, st));
    CK(cudaGraphLaunch(ge, st));
    CK(cudaEventRecord(e1, st));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    per_call.push_back(ms * 1000.f / copies);
  }
  std::sort(per_call.begin(), per_call.end());

  // The last call of one more replay leaves its stamps.
  std::vector<unsigned long long> tl(size_t(kMaxCtas) * 2 * kMarks);
  CK(cudaGraphLaunch(ge, st));
  CK(cudaStreamSynchronize(st));
  const int got = blockfp8::detail::read_timeline(tl.data(), kMaxCtas);
  if (got <= 0) {
    std::printf("no timeline: is the library built with -DBLOCKFP8_TIMELINE=ON?\n");
    return 1;
  }
  int dev;
  CK(cudaGetDevice(&dev));
  int clock_khz;
  CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev));
  const double ns_per_cycle = 1e6 / clock_khz;

  // A CTA recorded in this call has an entry stamp newer than any stamp of earlier calls: keep CTAs
  // whose entry is within 50 us of the latest entry.
  unsigned long long latest = 0;
  for (int i = 0; i < got; ++i) latest = std::max(latest, tl[size_t(i) * 2 * kMarks]);
  std::vector<int> ctas;
  for (int i = 0; i < got; ++i)
    if (tl[size_t(i) * 2 * kMarks] + 50000 > latest) ctas.push_back(i);
  unsigned long long t0 = ~0ull;
  for (int i : ctas) t0 = std::min(t0, tl[size_t(i) * 2 * kMarks]);

  std::printf("decode_timeline N=%lld K=%lld M=%lld %s plan %s  %zu CTAs  cold %.2f us per call (median of 15)\n",
              (long long)n, (long long)k, (long long)m, bf16a ? "bf16a" : "fp8", name, ctas.size(),
              per_call[per_call.size() / 2]);
  std::printf("%-28s %8s %8s %8s   %8s %8s  (ns; left: globaltimer from the first entry, right: clock64 from "
              "the CTA's own entry)\n",
              "mark", "min", "median", "max", "median", "max");
  for (int mk = 0; mk < kMarks; ++mk) {
    std::vector<double> g, own;
    for (int i : ctas) {
      const unsigned long long* r = &tl[size_t(i) * 2 * kMarks];
      if (r[mk] == 0 || r[mk] < r[0]) continue;  // not reached in this call (e.g. a CTA without tiles)
      g.push_back(double(r[mk] - t0));
      own.push_back(double(int64_t(r[kMarks + mk] - r[kMarks])) * ns_per_cycle);
    }
    if (g.empty()) continue;
    std::sort(g.begin(), g.end());
    std::sort(own.begin(), own.end());
    std::printf("%-28s %8.0f %8.0f %8.0f   %8.0f %8.0f  (%zu CTAs)\n", kMarkNames[mk], g.front(), g[g.size() / 2],
                g.back(), own[own.size() / 2], own.back(), g.size());
  }
  return 0;
}
