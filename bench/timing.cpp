#include "timing.h"

#include <algorithm>
#include <cmath>

#include "common.h"

namespace bench {
namespace {

struct Graph {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  ~Graph() {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
  }
};

struct Events {
  std::vector<cudaEvent_t> ev;
  explicit Events(size_t n) : ev(n, nullptr) {
    for (auto& e : ev) BENCH_CUDA(cudaEventCreate(&e));
  }
  ~Events() {
    for (auto e : ev)
      if (e) cudaEventDestroy(e);
  }
};

double g_settle_ms = 0, g_settle_min_call_us = 0;
bool g_point_settled = false;  // begin_point, point_settled

// Replays `exec` untimed for about g_settle_ms when its calls are long enough to matter (or always),
// sizing the number of replays from one timed replay.
void settle(cudaGraphExec_t exec, size_t calls, cudaStream_t stream, bool always) {
  if (g_settle_ms <= 0) return;
  Events probe(2);
  BENCH_CUDA(cudaEventRecord(probe.ev[0], stream));
  BENCH_CUDA(cudaGraphLaunch(exec, stream));
  BENCH_CUDA(cudaEventRecord(probe.ev[1], stream));
  BENCH_CUDA(cudaStreamSynchronize(stream));
  float ms = 0;
  BENCH_CUDA(cudaEventElapsedTime(&ms, probe.ev[0], probe.ev[1]));
  if (!always && !g_point_settled && 1000.0 * ms / double(calls) < g_settle_min_call_us) return;
  g_point_settled = true;
  const int n = int(std::clamp(std::ceil(g_settle_ms / std::max(ms, 1e-3f)), 1.0, 100000.0));
  for (int i = 0; i < n; ++i) BENCH_CUDA(cudaGraphLaunch(exec, stream));
}

}  // namespace

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

void set_settle(double settle_ms, double min_call_us) { g_settle_ms = settle_ms, g_settle_min_call_us = min_call_us; }

void begin_point() { g_point_settled = false; }

bool point_settled() { return g_point_settled; }

ReplayStats time_graph(const Enqueue& enqueue, const std::vector<int>& copies, int replays, cudaStream_t stream,
                       bool settle_always) {
  if (copies.empty() || replays < 1) throw CudaError("time_graph: nothing to time");
  Graph g;
  // Relaxed: a library may legitimately make a first-use call (e.g. a function attribute) while captured.
  BENCH_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
  try {
    for (int c : copies) enqueue(c, stream);
  } catch (...) {
    cudaGraph_t broken = nullptr;
    cudaStreamEndCapture(stream, &broken);  // the stream must leave capture mode whatever happened
    if (broken) cudaGraphDestroy(broken);
    cudaGetLastError();
    throw;
  }
  BENCH_CUDA(cudaStreamEndCapture(stream, &g.graph));
  BENCH_CUDA(cudaGraphInstantiate(&g.exec, g.graph, 0));
  BENCH_CUDA(cudaGraphUpload(g.exec, stream));

  BENCH_CUDA(cudaGraphLaunch(g.exec, stream));  // warm-up: first-touch costs stay out of the numbers
  settle(g.exec, copies.size(), stream, settle_always);
  Events events(2 * size_t(replays));
  for (int r = 0; r < replays; ++r) {
    BENCH_CUDA(cudaEventRecord(events.ev[2 * r], stream));
    BENCH_CUDA(cudaGraphLaunch(g.exec, stream));
    BENCH_CUDA(cudaEventRecord(events.ev[2 * r + 1], stream));
  }
  BENCH_CUDA(cudaStreamSynchronize(stream));

  std::vector<double> us(replays);
  for (int r = 0; r < replays; ++r) {
    float ms = 0;
    BENCH_CUDA(cudaEventElapsedTime(&ms, events.ev[2 * r], events.ev[2 * r + 1]));
    us[r] = 1000.0 * ms / double(copies.size());
  }
  ReplayStats s;
  s.median_us = median(us);
  s.min_us = *std::min_element(us.begin(), us.end());
  return s;
}

ColdHot time_cold_hot(const Enqueue& enqueue, int copies, int replays, cudaStream_t stream, double hot_target_us) {
  ColdHot r;
  r.copies = copies;
  std::vector<int> order(copies);
  for (int i = 0; i < copies; ++i) order[i] = i;
  r.cold_us = time_graph(enqueue, order, replays, stream).median_us;

  // Enough hot calls that the graph's own start-up cost is spread thin, few enough to stay quick.
  const double calls = r.cold_us > 0 ? std::ceil(hot_target_us / r.cold_us) : 256.0;
  r.hot_calls = int(std::clamp(calls, 4.0, 256.0));
  r.hot_us = time_graph(enqueue, std::vector<int>(r.hot_calls, 0), replays, stream).median_us;
  return r;
}

}  // namespace bench
