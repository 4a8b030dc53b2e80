// The weight-streaming floor: the fastest this bench can read N*K bytes from HBM with a kernel that
// does nothing else. It is the yardstick for the decode GEMM, which must read the same bytes.
// Two families are tried and the faster kept, so the floor is a real upper bound on bandwidth:
//   ldg  - 16-byte non-caching vector loads, `depth` independent loads in flight per thread;
//   bulk - cp.async.bulk (the TMA engine's linear copy) global->shared, an mbarrier per stage.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <vector>

namespace bench {

struct FloorConfig {
  enum Kind { ldg, bulk } kind = ldg;
  int threads = 512;       // per block (bulk: one warp, one issuing thread)
  int blocks_per_sm = 2;
  int depth = 4;           // ldg: 16-byte loads in flight per thread; bulk: pipeline stages
  int chunk_bytes = 0;     // bulk: bytes per copy instruction
  std::string name() const;
};

std::vector<FloorConfig> floor_candidates();

// Words the dummy output of any candidate needs.
size_t floor_sink_words(int sm_count);

// Sets the kernels' shared-memory attributes; call once before any launch (and outside capture).
void floor_init();

// Reads `bytes` (a multiple of 16, 16-byte aligned) from src once; writes a reduction to sink.
void launch_floor(const FloorConfig& cfg, const void* src, size_t bytes, int sm_count, unsigned* sink,
                  cudaStream_t stream);

// BLOCKFP8_TIMELINE builds of floor.cu (the decode_timeline probe): the ldg kernel's marks of its
// latest launch (kernels/timeline.cuh rows: entry, thread 0's first pass landed, exit), or -1.
int read_floor_timeline(unsigned long long* host, int ctas);

// An empty kernel, for the per-call cost of a graph node.
void launch_empty(cudaStream_t stream);

struct FloorTrial {
  FloorConfig cfg;
  double cold_us = 0;
};

struct FloorResult {
  FloorConfig best;
  double cold_us = 0;  // per call, rotating over the copies
  double hot_us = 0;   // per call, the same copy over and over
  std::vector<FloorTrial> trials;
};

// Times every candidate cold over `copies` (each `bytes` long), keeps the fastest, times it hot too.
FloorResult measure_floor(const std::vector<const void*>& copies, size_t bytes, int sm_count, unsigned* sink,
                          int replays, cudaStream_t stream);

}  // namespace bench
