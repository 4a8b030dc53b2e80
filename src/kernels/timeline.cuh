// Diagnostic builds only (cmake -DBLOCKFP8_TIMELINE=ON): per-CTA timestamps of a decode kernel's
// latest launch, read back by bench/probes/decode_timeline. Mark i stores %globaltimer (ns,
// comparable across SMs) and clock64 (SM cycles, fine-grained within the CTA). Each kernel file keeps
// its own `g_timeline` (device code is not relocatable here), marks with BLOCKFP8_MARK and exports
// a reader built on copy_timeline. Compiled out otherwise.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>

namespace blockfp8::detail {

constexpr int kTimelineCtas = 1024, kTimelineMarks = 19;
// A CTA's row: kTimelineMarks globaltimer stamps, kTimelineMarks clock64 stamps, then the SM it ran on
// (%smid, written with mark 0): which SMs are late, run after run.
constexpr int kTimelineRowWords = 2 * kTimelineMarks + 1;
using TimelineRows = unsigned long long[kTimelineCtas][kTimelineRowWords];

#ifdef BLOCKFP8_TIMELINE
__device__ __forceinline__ void timeline_mark(TimelineRows& rows, int i) {
  unsigned long long g;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g));
  const long long c = clock64();
  const unsigned cta = blockIdx.x + blockIdx.y * gridDim.x;
  if (cta >= kTimelineCtas) return;
  rows[cta][i] = g, rows[cta][kTimelineMarks + i] = c;
  if (i == 0) {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    rows[cta][2 * kTimelineMarks] = sm;
  }
}
#define BLOCKFP8_MARK(i, cond)               \
  do {                                        \
    if (cond) timeline_mark(g_timeline, (i)); \
  } while (0)
// A mark that cannot run before `value` is known (e.g. a sum of loaded data): its branch depends on
// it. The mark is skipped when value happens to be 0x9e3779b9, which a timeline can afford.
#define BLOCKFP8_MARK_AFTER(i, cond, value)                                     \
  do {                                                                          \
    if ((cond) && static_cast<unsigned>(value) != 0x9e3779b9u) timeline_mark(g_timeline, (i)); \
  } while (0)

// The first `ctas` CTAs' rows of `rows` (a kernel file's g_timeline) into `host`: CTAs copied, or -1.
inline int copy_timeline(const TimelineRows& rows, unsigned long long* host, int ctas) {
  ctas = std::min(ctas, kTimelineCtas);
  return cudaMemcpyFromSymbol(host, rows, sizeof(unsigned long long) * kTimelineRowWords * ctas) == cudaSuccess
             ? ctas
             : -1;
}
#else
#define BLOCKFP8_MARK(i, cond) \
  do {                          \
  } while (0)
#define BLOCKFP8_MARK_AFTER(i, cond, value) \
  do {                                       \
  } while (0)
#endif

}  // namespace blockfp8::detail
