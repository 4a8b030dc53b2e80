// blockfp8_fuzz: randomised differential testing of blockfp8 on the device, against the GPU
// reference kernel (tests/gpu/gpu_reference.cu).
//
//   blockfp8_fuzz [--cases N] [--seed S] [--max-seconds T] [--case I] [--verbose] [--list]
//
// --list prints the cases and their total work without running them (no GPU needed).
//
// Case i is a pure function of (seed, i): `--seed S --case I` replays one failure. Every case draws
// M (0..8192, mostly <= 256), N (1..40000, mostly small), K (a multiple of 128 up to 16384), the
// output dtype, padded lda / ldb / ldc, a scale layout for each scale tensor (row-major, column-major,
// padded, broadcast), A / B base offsets (16-byte aligned mostly, sometimes not: the SIMT path), C's
// base offset, and the configuration: AUTO mostly, else a random valid forced SWAPAB_SPLITK config
// (token tile, split-K, 1 or 2 warpgroups, default or shallow pipeline), a forced TILED config (width,
// cluster shape, ring depth), a forced WARP_MMA config (instantiation, split-K, warps) or SIMT. M * N * K is capped
// (2^29, or 2^34 for 1% of the cases; 2^27 / 2^31 on the SIMT path) to bound the time. C, the guard
// bands around it and its row padding are NaN-poisoned; after the call every guard byte must be unchanged, every element written and
// max|C - ref| / max|ref| within 1e-2 (bf16) or 5e-3 (fp16, fp32). A forced TMA-path config on
// TMA-incompatible inputs must return BLOCKFP8_ERROR_INVALID_CONFIG and leave C untouched; M == 0
// must succeed and leave C untouched. All device memory is one allocation, reused.
//
// Last line: "<cases> cases, <failures> failures, seed <seed>". Exit status 0 if no failure, 1 on a
// failure, 77 (skipped) without a compute capability 9.0 device, 2 on bad arguments.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "blockfp8/blockfp8.h"
#include "blockfp8/blockfp8.hpp"
#include "device_info.h"
#include "dispatch.h"  // legal pipeline depths of a forced config (src/dispatch.h)
#include "dispatch_tiled.h"
#include "gemm_arena.h"
#include "gpu_test_util.h"
#include "random.h"
#include "watchdog.h"

namespace {

using namespace bf8test;

// M * N * K caps: the GPU reference does roughly 3e12 multiply-adds a second, the SIMT kernel less.
// Most cases get the small cap; one in kBigCaseOdds gets the large one.
constexpr int64_t kMaxMNK = int64_t{1} << 34, kMaxMNKSmall = int64_t{1} << 29;
constexpr int64_t kMaxMNKSimt = int64_t{1} << 31, kMaxMNKSimtSmall = int64_t{1} << 27;
constexpr double kBigCaseOdds = 0.01;
constexpr size_t kArenaLimit = size_t{3} << 30;  // device bytes one case may use

// A counter-based stream of random numbers for one case.
struct Rng {
  uint64_t seed, i = 0;
  uint64_t next() { return random_u64(seed, i++); }
  double unit() { return random_unit(seed, i++); }
  bool chance(double p) { return unit() < p; }
  int64_t range(int64_t lo, int64_t hi) { return lo + int64_t(next() % uint64_t(hi - lo + 1)); }  // inclusive
  int64_t log_uniform(int64_t lo, int64_t hi) {
    const double v = std::exp(std::log(double(lo)) + unit() * (std::log(double(hi) + 1) - std::log(double(lo))));
    return std::clamp(int64_t(v), lo, hi);
  }
};

enum class CallKind { kPlain, kExNull, kExAuto, kForced };

struct FuzzCase {
  GemmSpec spec;
  CallKind call = CallKind::kPlain;
  blockfp8_config_t cfg{};
  bool tma_ok = true;
  std::string str() const {
    std::string s = spec.str() + " call=";
    switch (call) {
      case CallKind::kPlain: return s + "gemm";
      case CallKind::kExNull: return s + "ex(NULL)";
      case CallKind::kExAuto: return s + "ex(AUTO)";
      case CallKind::kForced: return s + "ex(" + blockfp8::config_name(cfg) + ")";
    }
    return s;
  }
};

bool tma_compatible(const GemmSpec& s) {
  return s.a_off % 16 == 0 && s.b_off % 16 == 0 && s.lda % 16 == 0 && s.ldb % 16 == 0;
}

// One scale tensor's strides (rows x kb): row-major, column-major, padded either way, broadcast.
void scale_layout(Rng& r, int64_t rows, int64_t kb, int64_t& s_row, int64_t& s_col) {
  const double u = r.unit();
  if (u < 0.35) s_row = kb, s_col = 1;
  else if (u < 0.65) s_row = 1, s_col = rows;                      // column-major ("transposed")
  else if (u < 0.78) s_row = kb + r.range(1, 5), s_col = 1;       // padded rows
  else if (u < 0.90) s_row = 1, s_col = rows + r.range(1, 7);     // padded columns
  else if (u < 0.95) s_row = 1, s_col = 0;                        // one scale per row for all k-blocks
  else s_row = 0, s_col = 1;                                      // one scale per k-block for all rows
}

FuzzCase make_case(uint64_t seed, uint64_t index, const blockfp8::detail::DeviceInfo& dev) {
  Rng r{derive_seed(seed, 1000 + index)};
  FuzzCase fc;
  GemmSpec& s = fc.spec;

  // Shape, skewed toward the small problems of inference.
  const double um = r.unit();
  s.m = um < 0.03 ? 0 : um < 0.63 ? r.log_uniform(1, 256) : um < 0.88 ? r.log_uniform(257, 2048) : r.log_uniform(2049, 8192);
  const double un = r.unit();
  s.n = un < 0.5 ? r.log_uniform(1, 4096) : un < 0.85 ? r.log_uniform(4097, 16384) : r.log_uniform(16385, 40000);
  if (r.chance(0.2)) s.n = std::clamp<int64_t>((s.n + 63) / 64 * 64 + r.range(-1, 1), 1, 40000);  // tile edges
  int64_t kb = r.log_uniform(1, 128);
  const double ud = r.unit();
  s.dtype = ud < 0.5 ? BLOCKFP8_DTYPE_BF16 : ud < 0.75 ? BLOCKFP8_DTYPE_FP16 : BLOCKFP8_DTYPE_FP32;

  // Operand placement: mostly TMA-friendly, sometimes not.
  int64_t lda_pad = 0, ldb_pad = 0;
  const double ua = r.unit(), ub = r.unit();
  if (ua < 0.2) lda_pad = 16 * r.range(1, 8);
  else if (ua < 0.25) lda_pad = r.range(1, 15);
  if (ub < 0.2) ldb_pad = 16 * r.range(1, 8);
  else if (ub < 0.25) ldb_pad = r.range(1, 15);
  const double oa = r.unit(), ob = r.unit();
  s.a_off = oa < 0.75 ? 0 : oa < 0.95 ? 16 * r.range(1, 15) : r.range(1, 15);
  s.b_off = ob < 0.75 ? 0 : ob < 0.95 ? 16 * r.range(1, 15) : r.range(1, 15);
  const int64_t ldc_pad = r.chance(0.3) ? r.range(1, 9) : 0;
  s.c_off = r.chance(0.3) ? r.range(1, 7) : 0;

  // Configuration.
  const double uc = r.unit();
  fc.call = uc < 0.3 ? CallKind::kPlain : uc < 0.45 ? CallKind::kExNull : uc < 0.6 ? CallKind::kExAuto : CallKind::kForced;
  if (fc.call == CallKind::kForced) {
    const double uk = r.unit();
    fc.cfg.kernel = uk < 0.4    ? BLOCKFP8_KERNEL_SWAPAB_SPLITK
                    : uk < 0.6  ? BLOCKFP8_KERNEL_TILED
                    : uk < 0.8  ? BLOCKFP8_KERNEL_WARP_MMA
                                : BLOCKFP8_KERNEL_SIMT;
  }

  s.lda = kb * 128 + lda_pad, s.ldb = kb * 128 + ldb_pad;  // provisional: decides the path
  fc.tma_ok = tma_compatible(s);
  const bool simt_path = (fc.cfg.kernel == BLOCKFP8_KERNEL_SIMT) || !fc.tma_ok;
  const bool big = r.chance(kBigCaseOdds);
  const int64_t cap = simt_path ? (big ? kMaxMNKSimt : kMaxMNKSimtSmall) : (big ? kMaxMNK : kMaxMNKSmall);
  for (int guard = 0; std::max<int64_t>(s.m, 1) * s.n * kb * 128 > cap && guard < 200; ++guard) {
    const double u = r.unit();
    if (u < 0.4 && kb > 1) kb = (kb + 1) / 2;
    else if (u < 0.8 && s.n > 1) s.n = (s.n + 1) / 2;
    else if (s.m > 1) s.m = (s.m + 1) / 2;
  }
  s.k = kb * 128;
  s.lda = s.k + lda_pad, s.ldb = s.k + ldb_pad, s.ldc = s.n + ldc_pad;
  const int64_t nb = (s.n + 127) / 128;
  scale_layout(r, std::max<int64_t>(s.m, 1), kb, s.sa_m, s.sa_k);
  scale_layout(r, nb, kb, s.sb_n, s.sb_k);
  while (GemmArena::bytes_needed(s) > kArenaLimit && s.n > 1) {
    s.n = (s.n + 1) / 2, s.ldc = s.n + ldc_pad;
    scale_layout(r, (s.n + 127) / 128, kb, s.sb_n, s.sb_k);
  }

  if (fc.cfg.kernel == BLOCKFP8_KERNEL_SWAPAB_SPLITK) {
    namespace d = blockfp8::detail;
    const int tiles[] = {8, 16, 32, 64, 128};
    blockfp8_config_t& c = fc.cfg;
    c.token_tile = tiles[r.range(0, 4)];
    c.split_k = int(r.range(1, std::min<int64_t>(d::kMaxSplitK, kb)));
    c.warpgroups = int(r.range(0, 2));
    const int rows[] = {0, 16, 32, 64};
    c.weight_rows = rows[r.range(0, 3)];
    c.stage_kblocks = r.chance(0.5) ? 0 : int(r.range(1, std::min<int64_t>(8, d::swapab_kb_slice(kb, c.split_k))));
    if (r.chance(0.4)) {
      if (c.stage_kblocks == 0) c.stage_kblocks = 1;  // the legal depths below depend on it
      const int w = c.warpgroups ? c.warpgroups : d::kSwapabDefaultWarpgroups;
      const int lo = d::swapab_min_stages(c.token_tile, w);
      const int hi = std::min(d::swapab_max_stages(c.token_tile, c.weight_rows ? c.weight_rows : 64,
                                                      c.stage_kblocks ? c.stage_kblocks : 1,
                                                      d::swapab_kb_slice(kb, c.split_k), dev), lo + 4);
      c.stages = int(r.range(lo, std::max(lo, hi)));
    }
    // A draw the dispatcher's rules refuse (a box too large for the ring next to a long K slice's
    // scales) would test the refusal, not the kernel: fall back to the library's depth and boxes.
    blockfp8_config_t probe = c;
    if (d::check_config(probe, s.m, s.n, s.k, dev) != BLOCKFP8_SUCCESS) c.stage_kblocks = 0, c.stages = 0;
  }
  if (fc.cfg.kernel == BLOCKFP8_KERNEL_WARP_MMA) {
    namespace d = blockfp8::detail;
    struct Inst {
      int tt, rows, kb;
    };
    static const Inst insts[] = {
#define BLOCKFP8_WARPMMA_INST(TT, RR, UU) {TT, RR, UU},
        BLOCKFP8_WARPMMA_CONFIGS(BLOCKFP8_WARPMMA_INST)
#undef BLOCKFP8_WARPMMA_INST
    };
    const Inst& in = insts[r.range(0, int64_t(std::size(insts)) - 1)];
    blockfp8_config_t& c = fc.cfg;
    c.token_tile = in.tt, c.weight_rows = in.rows, c.stage_kblocks = in.kb;
    c.split_k = int(r.range(1, std::min<int64_t>(d::kMaxSplitK, kb)));
    c.warpgroups = int(r.range(1, d::warpmma_max_warps(in.tt) / 4));
    // Fewer warps where the draw's rings would not fit a CTA's shared memory (a refusal, not the kernel).
    for (blockfp8_config_t probe = c; c.warpgroups > 1 && d::check_config(probe, s.m, s.n, s.k, dev) != BLOCKFP8_SUCCESS;
         probe = c)
      --c.warpgroups;
  }
  if (fc.cfg.kernel == BLOCKFP8_KERNEL_TILED) {
    namespace d = blockfp8::detail;
    blockfp8_config_t& c = fc.cfg;
    const int widths[] = {0, 64, 80, 96, 112, 128, 144, 160, 176, 192};
    c.weight_rows = widths[r.range(0, 9)];
    // Every cluster shape, forced or left to the dispatcher, including those whose last clusters hold
    // CTAs past M or N.
    const int clusters[][2] = {{0, 0}, {1, 1}, {2, 1}, {1, 2}, {1, 4}, {0, 1}, {1, 0}};
    const auto& cl = clusters[r.range(0, 6)];
    c.cluster_m = cl[0], c.cluster_n = cl[1];
    if (r.chance(0.3)) c.stages = int(r.range(d::kTiledMinStages, d::tiled_max_stages(c.weight_rows ? c.weight_rows : 192, dev)));
    // K split over a cluster, where the rules take it (few enough tiles, a ring that holds the partial).
    if (r.chance(0.3) && c.cluster_m <= 1 && c.cluster_n <= 1) {
      blockfp8_config_t probe = c;
      probe.split_k = int(r.range(2, d::kTiledMaxSplitK));
      if (d::check_config(probe, s.m, s.n, s.k, dev) == BLOCKFP8_SUCCESS) c.split_k = probe.split_k;
    }
  }
  return fc;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  int64_t cases = 2000, only = -1;
  double max_seconds = 240;
  bool verbose = false, list = false;
  uint64_t seed = 0;
  bool seed_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--cases" && has_value) cases = std::strtoll(argv[++i], nullptr, 0);
    else if (a == "--seed" && has_value) seed = std::strtoull(argv[++i], nullptr, 0), seed_given = true;
    else if (a == "--max-seconds" && has_value) max_seconds = std::strtod(argv[++i], nullptr);
    else if (a == "--case" && has_value) only = std::strtoll(argv[++i], nullptr, 0);
    else if (a == "--verbose" || a == "-v") verbose = true;
    else if (a == "--list") list = true;
    else {
      std::fprintf(stderr, "usage: %s [--cases N] [--seed S] [--max-seconds T] [--case I] [--verbose] [--list]\n", argv[0]);
      return 2;
    }
  }
  if (!seed_given) seed = test_seed();  // BLOCKFP8_TEST_SEED, or a fresh one

  if (list) {  // the cases and their work, host only
    const blockfp8::detail::DeviceInfo h200;
    double work[2] = {0, 0};
    int64_t n_cases[2] = {0, 0}, biggest = 0;
    const int64_t first = only >= 0 ? only : 0, last = only >= 0 ? only + 1 : cases;
    for (int64_t i = first; i < last; ++i) {
      const FuzzCase fc = make_case(seed, uint64_t(i), h200);
      const bool simt = fc.cfg.kernel == BLOCKFP8_KERNEL_SIMT || !fc.tma_ok;
      const int64_t mnk = fc.spec.m * fc.spec.n * fc.spec.k;
      work[simt] += double(mnk), ++n_cases[simt], biggest = std::max(biggest, mnk);
      std::printf("case %" PRId64 ": %s\n", i, fc.str().c_str());
    }
    std::printf("work (sum of M*N*K): %.3g on %" PRId64 " TMA-path cases, %.3g on %" PRId64
                " SIMT-path cases; largest %" PRId64 "\n", work[0], n_cases[0], work[1], n_cases[1], biggest);
    return 0;
  }
  if (!have_hopper()) {
    std::printf("SKIPPED: %s\n", kNoHopper);
    std::printf("0 cases, 0 failures, seed %" PRIu64 "\n", seed);
    return 77;
  }

  // The library's own description of this device (cluster capacities included): a draw checked
  // against the CPU defaults (44 clusters of 3, where an H200 holds fewer) could be one the library
  // rightly refuses (s11 call 7: a forced split tiled config of 44 units).
  const blockfp8::detail::DeviceInfo* devp = nullptr;
  if (blockfp8::detail::current_device_info(&devp) != BLOCKFP8_SUCCESS) {
    std::printf("cannot describe the device\n0 cases, 1 failures, seed %" PRIu64 "\n", seed);
    return 1;
  }
  const blockfp8::detail::DeviceInfo& dev = *devp;
  cudaStream_t stream = nullptr;
  if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) {
    std::printf("cudaStreamCreateWithFlags failed\n0 cases, 1 failures, seed %" PRIu64 "\n", seed);
    return 1;
  }

  GemmArena arena;
  if (arena.reserve(kArenaLimit) != cudaSuccess) {
    std::printf("cannot allocate the %zu-byte arena\n0 cases, 1 failures, seed %" PRIu64 "\n", kArenaLimit, seed);
    return 1;
  }
  std::vector<uint8_t> region;
  std::vector<float> ref;
  int64_t run = 0, failures = 0, skipped_over_time = 0;
  // auto/tma, auto/simt, forced swapab, forced simt, forced tiled, forced warp-mma
  int64_t per_kind[6] = {0, 0, 0, 0, 0, 0};
  const auto t0 = std::chrono::steady_clock::now();
  const int64_t first = only >= 0 ? only : 0, last = only >= 0 ? only + 1 : cases;
  bool sticky = false;
  // One case longer than BLOCKFP8_TEST_TIMEOUT seconds (default 60) is a hang: exit 124, naming it.
  Watchdog watchdog;
  const double case_limit = Watchdog::env_seconds("BLOCKFP8_TEST_TIMEOUT", 60);

  for (int64_t i = first; i < last; ++i) {
    if (only < 0 && seconds_since(t0) > max_seconds) {
      skipped_over_time = last - i;
      break;
    }
    const FuzzCase fc = make_case(seed, uint64_t(i), dev);
    const GemmSpec& s = fc.spec;
    watchdog.arm("fuzz case " + std::to_string(i) + " (replay: --seed " + std::to_string(seed) + " --case " +
                     std::to_string(i) + "): " + fc.str(),
                 case_limit);
    ++run;
    auto fail = [&](const std::string& what) {
      ++failures;
      std::printf("FAIL case %" PRId64 " (replay: --seed %" PRIu64 " --case %" PRId64 "): %s\n    %s\n", i, seed, i,
                  fc.str().c_str(), what.c_str());
      std::fflush(stdout);
    };
    auto cuda_fail = [&](const char* where, cudaError_t e) {
      fail(std::string(where) + ": " + cudaGetErrorString(e));
      // A sticky error (illegal address, ...) poisons the context: nothing after it can be trusted.
      if (cudaDeviceSynchronize() != cudaSuccess || cudaGetLastError() != cudaSuccess) sticky = true;
    };
    if (verbose) std::printf("case %" PRId64 ": %s\n", i, fc.str().c_str());

    cudaError_t e = arena.set(s, derive_seed(seed, 2000 + uint64_t(i)), stream);
    if (e != cudaSuccess) {
      cuda_fail("set up", e);
      if (sticky) break;
      continue;
    }
    // M == 0 returns before the configuration is looked at: a no-op, whatever the config.
    const bool expect_refusal =
        s.m > 0 && fc.call == CallKind::kForced && fc.cfg.kernel != BLOCKFP8_KERNEL_SIMT && !fc.tma_ok;
    blockfp8_status_t st;
    switch (fc.call) {
      case CallKind::kPlain: st = arena.call_plain(stream); break;
      case CallKind::kExNull: st = arena.call(nullptr, stream); break;
      case CallKind::kExAuto: {
        blockfp8_config_t a{};
        st = arena.call(&a, stream);
        break;
      }
      default: st = arena.call(&fc.cfg, stream); break;
    }
    ++per_kind[fc.call != CallKind::kForced ? (fc.tma_ok ? 0 : 1)
                                            : fc.cfg.kernel == BLOCKFP8_KERNEL_SWAPAB_SPLITK ? 2
                                            : fc.cfg.kernel == BLOCKFP8_KERNEL_SIMT          ? 3
                                            : fc.cfg.kernel == BLOCKFP8_KERNEL_TILED         ? 4
                                                                                             : 5];
    const blockfp8_status_t want = expect_refusal ? BLOCKFP8_ERROR_INVALID_CONFIG : BLOCKFP8_SUCCESS;
    if (st != want) {
      fail(std::string("status ") + blockfp8_status_string(st) + ", want " + blockfp8_status_string(want));
      cudaStreamSynchronize(stream);
      continue;
    }
    if ((e = cudaGetLastError()) != cudaSuccess || (e = cudaStreamSynchronize(stream)) != cudaSuccess) {
      cuda_fail("kernel", e);
      if (sticky) break;
      continue;
    }
    if ((e = arena.fetch(region)) != cudaSuccess) {
      cuda_fail("fetch", e);
      if (sticky) break;
      continue;
    }
    if (expect_refusal || s.m == 0) {
      if (!arena.untouched(region)) fail("C or its guards written by a call that must not write");
      continue;
    }
    if ((e = arena.reference(stream)) != cudaSuccess || (e = cudaStreamSynchronize(stream)) != cudaSuccess ||
        (e = arena.fetch_reference(ref)) != cudaSuccess) {
      cuda_fail("reference", e);
      if (sticky) break;
      continue;
    }
    Comparison cmp;
    const std::string err = arena.check(region, ref, &cmp);
    if (!err.empty()) fail(err);
    else if (verbose) std::printf("    ok: %s\n", cmp.str().c_str());
  }

  cudaStreamDestroy(stream);
  std::printf("paths: %" PRId64 " auto/TMA, %" PRId64 " auto/misaligned, %" PRId64 " forced swapab, %" PRId64
              " forced simt, %" PRId64 " forced tiled, %" PRId64 " forced warp-mma; %.1f s\n",
              per_kind[0], per_kind[1], per_kind[2], per_kind[3], per_kind[4], per_kind[5], seconds_since(t0));
  if (sticky) std::printf("stopped: sticky CUDA error, the context is unusable\n");
  if (skipped_over_time > 0)
    std::printf("stopped after %.0f s (--max-seconds): %" PRId64 " cases not run\n", max_seconds, skipped_over_time);
  std::printf("%" PRId64 " cases, %" PRId64 " failures, seed %" PRIu64 "\n", run, failures, seed);
  return failures == 0 ? 0 : 1;
}
