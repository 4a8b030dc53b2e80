// Graph-based timing. Every measurement captures a sequence of calls into one CUDA graph and times
// whole replays with events, so launch overhead from the host is out of the picture and what remains
// is what a serving engine replaying its own graph would see.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <vector>

namespace bench {

// Enqueues one call that works on operand copy `copy`. Must be capturable; throws on failure.
using Enqueue = std::function<void(int copy, cudaStream_t stream)>;

struct ReplayStats {
  double median_us = 0;  // per call
  double min_us = 0;     // per call, fastest replay
};

// Captures enqueue(copies[0]), enqueue(copies[1]), ... into one graph; replays it once untimed and
// then `replays` times back to back, each bracketed by events. Per-call time = replay time / calls.
// With settling on (set_settle), graphs whose calls take at least min_call_us are first replayed
// untimed for settle_ms; with settle_always, whatever their calls take.
ReplayStats time_graph(const Enqueue& enqueue, const std::vector<int>& copies, int replays, cudaStream_t stream,
                       bool settle_always = false);

// Bench-wide (set once from the options): replay a graph for settle_ms before timing it, when one of
// its calls takes at least min_call_us, or when an earlier graph of the same point did (begin_point).
// Why: under tensor-core load the H200 runs at its power limit, and the clock a kernel gets depends on
// what ran just before. One tiled configuration took 139 us
// and then 158 us when timed twice back to back, and 163 us after another M (s9 call 9). Settling
// on the graph's own load first makes every configuration start from its own steady state.
void set_settle(double settle_ms, double min_call_us);

// Settling is decided per point (shape and M), so that the backends of one point are timed in the same
// state: once one graph of the point settles, every later one settles too. Without that, a backend whose
// call crosses min_call_us was timed at the power-capped clock and a faster one beside it at the boost
// clock: at 7168x4352 M = 256, 22.4 us settled against cuBLASLt's 16.7 unsettled, where 7168x4096 read 18.2
// unsettled (s26 call 7). begin_point starts a point; point_settled says whether one of its graphs has
// settled (a backend timed before that can then be timed again).
void begin_point();
bool point_settled();

// The median of a non-empty sample (the mean of the middle two when even).
double median(std::vector<double> v);

struct ColdHot {
  double cold_us = 0, hot_us = 0;
  int copies = 0, hot_calls = 0;
};

// Cold: one call per copy in turn (the copies together exceed L2 several times, so each call reads
// from HBM). Hot: the same call on copy 0 repeated, about `hot_target_us` of work per replay.
ColdHot time_cold_hot(const Enqueue& enqueue, int copies, int replays, cudaStream_t stream,
                      double hot_target_us = 2000.0);

}  // namespace bench
