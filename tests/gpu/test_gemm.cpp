// GPU correctness suite of blockfp8, through the public API only.
//
// Every case draws fresh random e4m3 inputs (seeded per run, printed with every failure), fills all
// padding of A, B and the scales with NaN (a kernel that reads it poisons its output), poisons C and
// a guard band around it (and between rows when ldc > N) with 0xFF bytes — a NaN in bf16, fp16 and
// fp32 — and then checks that every element of C was written, that no guard byte changed, that
// max|C - ref| / max|ref| is within tolerance, and that a second run is bitwise identical.
// Small problems are checked against the CPU reference (double), large ones against the GPU
// reference kernel, which is itself checked against the CPU reference (GpuReferenceMatchesCpu).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "blockfp8/blockfp8.h"
#include "blockfp8/blockfp8.hpp"
#include "dispatch.h"  // BLOCKFP8_WARPMMA_CONFIGS: the warp-MMA instantiations
#include "fp8.h"
#include "gpu_reference.h"
#include "gpu_test_util.h"
#include "random.h"
#include "reference.h"

namespace bf8test {
namespace {

constexpr int64_t kCpuReferenceLimit = int64_t{1} << 28;  // M * N * K above this: the GPU reference
constexpr size_t kGuardBytes = 512;                       // poisoned bytes before and after C

// max|C - ref| / max|ref| allowed: bf16 rounding alone is up to 2^-9 of an element.
double tolerance(blockfp8_dtype_t t) { return t == BLOCKFP8_DTYPE_BF16 ? 1e-2 : 5e-3; }

enum class ScaleLayout {
  kRowMajor,    // strides (KB, 1)
  kColMajor,    // strides (1, rows)
  kBroadcastK,  // strides (1, 0): one scale per row for all k-blocks
  kRowPadded,   // strides (KB + 3, 1)
  kColPadded,   // strides (1, rows + 5)
};

const char* name(ScaleLayout l) {
  switch (l) {
    case ScaleLayout::kRowMajor: return "row";
    case ScaleLayout::kColMajor: return "col";
    case ScaleLayout::kBroadcastK: return "bcast_k";
    case ScaleLayout::kRowPadded: return "row_padded";
    case ScaleLayout::kColPadded: return "col_padded";
  }
  return "?";
}

struct ScaleStrides {
  int64_t s_row, s_col, extent;  // extent: elements spanned
};

ScaleStrides scale_strides(ScaleLayout l, int64_t rows, int64_t kb) {
  switch (l) {
    case ScaleLayout::kRowMajor: return {kb, 1, rows * kb};
    case ScaleLayout::kColMajor: return {1, rows, rows * kb};
    case ScaleLayout::kBroadcastK: return {1, 0, rows};
    case ScaleLayout::kRowPadded: return {kb + 3, 1, (rows - 1) * (kb + 3) + kb};
    case ScaleLayout::kColPadded: return {1, rows + 5, (kb - 1) * (rows + 5) + rows};
  }
  return {kb, 1, rows * kb};
}

struct Layout {
  blockfp8_dtype_t dtype = BLOCKFP8_DTYPE_BF16;
  ScaleLayout a_scale = ScaleLayout::kRowMajor, b_scale = ScaleLayout::kRowMajor;
  int64_t lda_pad = 0, ldb_pad = 0, ldc_pad = 0;  // ld = K (or N) + pad
  int64_t a_offset = 0, b_offset = 0;             // bytes added to A's / B's base pointer
  int64_t c_offset = 0;                           // elements added to C's (256-byte aligned) base
};

struct Case {
  int64_t m, n, k;
  Layout layout{};
};

std::string describe(const Case& c) {
  const Layout& l = c.layout;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "M=%" PRId64 " N=%" PRId64 " K=%" PRId64 " %s a_scale=%s b_scale=%s lda=K+%" PRId64 " ldb=K+%" PRId64
                " ldc=N+%" PRId64 " A+%" PRId64 "B B+%" PRId64 "B C+%" PRId64 "el",
                c.m, c.n, c.k, dtype_name(l.dtype), name(l.a_scale), name(l.b_scale), l.lda_pad, l.ldb_pad, l.ldc_pad,
                l.a_offset, l.b_offset, l.c_offset);
  return buf;
}

// One way of calling the library: blockfp8_gemm (dispatcher's choice) or blockfp8_gemm_ex with a config.
struct Variant {
  std::string name;
  bool use_ex = false;
  blockfp8_config_t cfg{};
};

Variant auto_variant() { return {"auto", false, {}}; }

Variant forced(int32_t kernel, int32_t token_tile = 0, int32_t split_k = 0, int32_t stages = 0,
               int32_t warpgroups = 0, int32_t weight_rows = 0) {
  blockfp8_config_t cfg{};
  cfg.kernel = kernel, cfg.token_tile = token_tile, cfg.split_k = split_k, cfg.stages = stages;
  cfg.warpgroups = warpgroups, cfg.weight_rows = weight_rows;
  return {blockfp8::config_name(cfg), true, cfg};
}

Variant simt() { return forced(BLOCKFP8_KERNEL_SIMT); }

// Every token tile x split-K 1..4: 64-row tiles with the default number of math warpgroups and with
// one, and 16- and 32-row tiles (wgmma still computes 64 rows; the rest must never reach C).
std::vector<Variant> all_swapab_configs() {
  std::vector<Variant> v;
  for (int tile : {8, 16, 32, 64, 128})
    for (int split = 1; split <= 4; ++split) {
      for (int warpgroups : {0, 1}) v.push_back(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, tile, split, 0, warpgroups));
      for (int rows : {16, 32}) v.push_back(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, tile, split, 0, 0, rows));
    }
  return v;
}

// The device buffers of one problem, its reference result, and the checks.
class Instance {
 public:
  void init(const Case& c, cudaStream_t stream, bool keep_host_copies = false) {
    cs_ = c;
    stream_ = stream;
    const Layout& l = c.layout;
    m_ = c.m, n_ = c.n, k_ = c.k;
    lda_ = k_ + l.lda_pad, ldb_ = k_ + l.ldb_pad, ldc_ = n_ + l.ldc_pad;
    es_ = dtype_bytes(l.dtype);
    const int64_t kb = k_ / 128, nb = (n_ + 127) / 128;
    sa_ = scale_strides(l.a_scale, m_, kb);
    sb_ = scale_strides(l.b_scale, nb, kb);
    // The data depends on the run's seed and the case, not on which tests ran before: a replay with
    // BLOCKFP8_TEST_SEED and a --gtest_filter sees the same numbers.
    seed_ = test_seed();
    for (int64_t v : {m_, n_, k_, int64_t(l.dtype), int64_t(l.a_scale), int64_t(l.b_scale), l.lda_pad, l.ldb_pad,
                      l.ldc_pad, l.a_offset, l.b_offset, l.c_offset})
      seed_ = mix64(seed_ ^ uint64_t(v));
    cpu_reference_ = m_ * n_ * k_ <= kCpuReferenceLimit;
    const bool host_copies = keep_host_copies || cpu_reference_;

    // A and B: NaN everywhere first (offset bytes, row padding), then the elements.
    a_bytes_ = size_t(l.a_offset + (m_ - 1) * lda_ + k_);
    b_bytes_ = size_t(l.b_offset + (n_ - 1) * ldb_ + k_);
    CUDA_ASSERT(d_a_.alloc(a_bytes_));
    CUDA_ASSERT(d_b_.alloc(b_bytes_));
    CUDA_ASSERT(cudaMemsetAsync(d_a_.get(), kE4m3NaN, a_bytes_, stream_));
    CUDA_ASSERT(cudaMemsetAsync(d_b_.get(), kE4m3NaN, b_bytes_, stream_));
    CUDA_ASSERT(fill_e4m3_device(d_a_.get() + l.a_offset, m_, k_, lda_, derive_seed(seed_, 1), stream_));
    CUDA_ASSERT(fill_e4m3_device(d_b_.get() + l.b_offset, n_, k_, ldb_, derive_seed(seed_, 2), stream_));

    // Scales: positive, small enough that fp16 cannot overflow (|C| <= K * 448^2 * sa * sb), NaN in gaps.
    const double lo = l.dtype == BLOCKFP8_DTYPE_FP16 ? -12 : -8, hi = lo + 4;
    fill_scales(h_as_, sa_, m_, kb, derive_seed(seed_, 3), lo, hi);
    fill_scales(h_bs_, sb_, nb, kb, derive_seed(seed_, 4), lo, hi);
    CUDA_ASSERT(d_as_.alloc(h_as_.size() * 4));
    CUDA_ASSERT(d_bs_.alloc(h_bs_.size() * 4));
    CUDA_ASSERT(cudaMemcpyAsync(d_as_.get(), h_as_.data(), h_as_.size() * 4, cudaMemcpyHostToDevice, stream_));
    CUDA_ASSERT(cudaMemcpyAsync(d_bs_.get(), h_bs_.data(), h_bs_.size() * 4, cudaMemcpyHostToDevice, stream_));

    // C with its guard bands.
    c_begin_ = kGuardBytes + size_t(l.c_offset * es_);
    c_bytes_ = c_begin_ + size_t(m_ * ldc_ * es_) + kGuardBytes;
    CUDA_ASSERT(d_c_.alloc(c_bytes_));

    if (host_copies) {
      h_a_.resize(a_bytes_);
      h_b_.resize(b_bytes_);
      CUDA_ASSERT(cudaMemcpyAsync(h_a_.data(), d_a_.get(), a_bytes_, cudaMemcpyDeviceToHost, stream_));
      CUDA_ASSERT(cudaMemcpyAsync(h_b_.data(), d_b_.get(), b_bytes_, cudaMemcpyDeviceToHost, stream_));
    }
    CUDA_ASSERT(cudaStreamSynchronize(stream_));
  }

  GemmOperands host_operands() const {
    const Layout& l = cs_.layout;
    return {m_,          n_,       k_,       h_a_.data() + l.a_offset, lda_, h_as_.data(), sa_.s_row, sa_.s_col,
            h_b_.data() + l.b_offset, ldb_, h_bs_.data(), sb_.s_row, sb_.s_col};
  }
  GemmOperands device_operands() const {
    const Layout& l = cs_.layout;
    return {m_,          n_,       k_,       d_a_.get() + l.a_offset, lda_, d_as_.get<float>(), sa_.s_row, sa_.s_col,
            d_b_.get() + l.b_offset, ldb_, d_bs_.get<float>(), sb_.s_row, sb_.s_col};
  }

  void cpu_reference(std::vector<float>& out) const {
    std::vector<double> ref;
    reference_gemm(host_operands(), ref);
    out.assign(ref.begin(), ref.end());
  }

  void gpu_reference(std::vector<float>& out) const {
    DeviceBuffer d_ref;
    CUDA_ASSERT(d_ref.alloc(size_t(m_ * n_) * sizeof(float)));
    CUDA_ASSERT(gpu_reference_gemm(device_operands(), d_ref.get<float>(), stream_));
    CUDA_ASSERT(cudaStreamSynchronize(stream_));
    out.resize(size_t(m_ * n_));
    CUDA_ASSERT(cudaMemcpy(out.data(), d_ref.get(), out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  }

  // The reference the checks compare against: CPU for small problems, GPU for large ones.
  void compute_reference() {
    if (cpu_reference_) {
      cpu_reference(ref_);
    } else {
      ASSERT_NO_FATAL_FAILURE(gpu_reference(ref_));
    }
  }

  // Fills C and its guard bands with 0xff bytes (NaN in every output dtype).
  void poison() const { EXPECT_EQ(cudaMemsetAsync(d_c_.get(), 0xff, c_bytes_, stream_), cudaSuccess); }

  // Poisons C and its guards, then calls the library (nothing waits for it). Returns its status.
  blockfp8_status_t call(const Variant& v, bool poison_first = true) {
    if (poison_first) poison();
    const Layout& l = cs_.layout;
    const void* a = d_a_.get() + l.a_offset;
    const void* b = d_b_.get() + l.b_offset;
    void* c = d_c_.get() + c_begin_;
    if (!v.use_ex)
      return blockfp8_gemm(m_, n_, k_, a, lda_, d_as_.get<float>(), sa_.s_row, sa_.s_col, b, ldb_,
                           d_bs_.get<float>(), sb_.s_row, sb_.s_col, c, ldc_, l.dtype, stream_);
    return blockfp8_gemm_ex(m_, n_, k_, a, lda_, d_as_.get<float>(), sa_.s_row, sa_.s_col, b, ldb_,
                            d_bs_.get<float>(), sb_.s_row, sb_.s_col, c, ldc_, l.dtype, &v.cfg, stream_);
  }

  // A successful run: the whole C buffer, guards included, back on the host.
  void run(const Variant& v, std::vector<uint8_t>& out) {
    const blockfp8_status_t st = call(v);
    ASSERT_EQ(st, BLOCKFP8_SUCCESS) << v.name << ": " << blockfp8_status_string(st);
    CUDA_ASSERT(cudaGetLastError());
    CUDA_ASSERT(cudaStreamSynchronize(stream_));
    ASSERT_NO_FATAL_FAILURE(fetch(out));
  }

  void fetch(std::vector<uint8_t>& out) const {
    out.resize(c_bytes_);
    CUDA_ASSERT(cudaMemcpy(out.data(), d_c_.get(), c_bytes_, cudaMemcpyDeviceToHost));
  }

  // Guard bytes untouched, every element written, error within tolerance.
  void check(const std::vector<uint8_t>& buf, const std::string& what) const {
    ASSERT_EQ(buf.size(), c_bytes_);
    int64_t bad_guard = 0, first_bad = -1;
    auto guard = [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i)
        if (buf[i] != 0xff && bad_guard++ == 0) first_bad = int64_t(i) - int64_t(c_begin_);
    };
    guard(0, c_begin_);
    for (int64_t m = 0; m < m_; ++m)
      guard(c_begin_ + size_t((m * ldc_ + n_) * es_), c_begin_ + size_t((m + 1) * ldc_ * es_));
    guard(c_begin_ + size_t(m_ * ldc_ * es_), c_bytes_);
    EXPECT_EQ(bad_guard, 0) << "bytes outside C changed; first at byte offset " << first_bad << " from C";

    const Comparison r = compare_output(buf.data() + c_begin_, ldc_, cs_.layout.dtype, ref_.data(), m_, n_);
    std::printf("[ check    ] %-96s %-18s ref=%s  %s\n", describe(cs_).c_str(), what.c_str(),
                cpu_reference_ ? "cpu" : "gpu", r.str().c_str());
    EXPECT_EQ(r.unwritten, 0) << "elements of C left unwritten: " << r.str();
    EXPECT_EQ(r.non_finite, 0) << r.str();
    EXPECT_GT(r.max_abs_ref, 0) << "degenerate test data";
    // A C of a few elements (host copies at hand) is normalised by max(max|ref|, the terms' natural size):
    // see reference_scale. Over more elements that is max|ref|, so it is not computed.
    const bool few = cpu_reference_ && m_ * n_ <= 64;
    const double norm = few ? std::max(r.max_abs_ref, reference_scale(host_operands())) : r.max_abs_ref;
    EXPECT_LE(r.max_abs_err / norm, tolerance(cs_.layout.dtype)) << r.str() << "; normalised by " << norm;
  }

  const Case& spec() const { return cs_; }
  const std::vector<float>& reference() const { return ref_; }
  void* c() const { return d_c_.get() + c_begin_; }

 private:
  static void fill_scales(std::vector<float>& h, const ScaleStrides& s, int64_t rows, int64_t kb, uint64_t seed,
                          double lo, double hi) {
    h.assign(size_t(s.extent), float_from_bits(0x7fc00000u));
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < kb; ++j) h[size_t(i * s.s_row + j * s.s_col)] = random_scale(seed, uint64_t(i * kb + j), lo, hi);
  }

  Case cs_{0, 0, 0};
  cudaStream_t stream_ = nullptr;
  int64_t m_ = 0, n_ = 0, k_ = 0, lda_ = 0, ldb_ = 0, ldc_ = 0, es_ = 2;
  ScaleStrides sa_{}, sb_{};
  uint64_t seed_ = 0;
  bool cpu_reference_ = true;
  size_t a_bytes_ = 0, b_bytes_ = 0, c_begin_ = 0, c_bytes_ = 0;
  DeviceBuffer d_a_, d_b_, d_as_, d_bs_, d_c_;
  std::vector<uint8_t> h_a_, h_b_;
  std::vector<float> h_as_, h_bs_;
  std::vector<float> ref_;
};

class GemmTest : public HopperTest {
 protected:
  // Each variant: run, check, run again, compare bitwise.
  void run_case(const Case& c, const std::vector<Variant>& variants) {
    SCOPED_TRACE(describe(c) + "; " + seed_note());
    Instance inst;
    ASSERT_NO_FATAL_FAILURE(inst.init(c, stream_));
    ASSERT_NO_FATAL_FAILURE(inst.compute_reference());
    for (const Variant& v : variants) {
      SCOPED_TRACE(v.name);
      std::vector<uint8_t> first, second;
      ASSERT_NO_FATAL_FAILURE(inst.run(v, first));
      ASSERT_NO_FATAL_FAILURE(inst.check(first, v.name));
      ASSERT_NO_FATAL_FAILURE(inst.run(v, second));
      EXPECT_TRUE(first == second) << v.name << ": two runs are not bitwise identical";
    }
  }

  void run_cases(const std::vector<Case>& cases, const std::vector<Variant>& variants) {
    for (const Case& c : cases) {
      run_case(c, variants);
      if (HasFatalFailure()) return;
    }
  }

};

Case with(int64_t m, int64_t n, int64_t k, Layout l) { return {m, n, k, l}; }
Layout dtype(blockfp8_dtype_t t) {
  Layout l;
  l.dtype = t;
  return l;
}

// The CPU reference is exact; the GPU reference rounds each block sum to fp32. Checked on moderate
// shapes with tails, padding and both scale layouts before the large cases rely on it.
TEST_F(GemmTest, GpuReferenceMatchesCpuReference) {
  Layout col;
  col.a_scale = ScaleLayout::kColMajor;
  Layout padded;
  padded.lda_pad = 5, padded.ldb_pad = 1, padded.a_offset = 3, padded.b_scale = ScaleLayout::kRowPadded;
  Layout bcol;
  bcol.b_scale = ScaleLayout::kColMajor, bcol.a_scale = ScaleLayout::kBroadcastK;
  for (const Case& c : {with(33, 100, 512, col), with(7, 4097, 128, padded), with(64, 257, 1024, bcol),
                        with(130, 64, 7168, Layout{}), with(1, 7168, 512, col)}) {
    SCOPED_TRACE(describe(c) + "; " + seed_note());
    Instance inst;
    ASSERT_NO_FATAL_FAILURE(inst.init(c, stream_, /*keep_host_copies=*/true));
    std::vector<float> cpu, gpu;
    inst.cpu_reference(cpu);
    ASSERT_NO_FATAL_FAILURE(inst.gpu_reference(gpu));
    double max_err = 0, max_ref = 0;
    for (size_t i = 0; i < cpu.size(); ++i) {
      max_ref = std::max(max_ref, double(std::fabs(cpu[i])));
      ASSERT_FALSE(std::isnan(gpu[i])) << "GPU reference produced NaN at " << i;
      max_err = std::max(max_err, double(std::fabs(gpu[i] - cpu[i])));
    }
    std::printf("[ gpu ref  ] %-96s max|gpu-cpu|/max|cpu| = %.3e\n", describe(c).c_str(), max_err / max_ref);
    EXPECT_GT(max_ref, 0);
    EXPECT_LE(max_err / max_ref, 2e-5);
  }
}

// The dispatcher's choice over a covering selection of shapes: every M, N and K of the spec appears.
TEST_F(GemmTest, DispatcherShapes) {
  const Layout l;
  run_cases({// CPU reference
             with(1, 1, 128, l), with(1, 7168, 7168, l), with(2, 7, 16384, l), with(3, 100, 512, l),
             with(4, 2112, 7168, l), with(7, 4097, 512, l), with(16, 64, 16384, l), with(33, 7168, 512, l),
             with(64, 2112, 512, l), with(128, 100, 7168, l), with(255, 4097, 128, l), with(1024, 7, 7168, l),
             with(4096, 64, 128, l), with(1, 24576, 7168, l),
             // GPU reference
             with(2, 24576, 16384, l), with(16, 7168, 16384, l), with(64, 24576, 7168, l), with(128, 4097, 16384, l),
             with(255, 2112, 7168, l), with(1024, 2112, 7168, l), with(4096, 7168, 7168, l),
             with(100, 2112, 7168, l),  // two 64-token tiles, the second moved back inside M
             // the tiled kernel at a few tokens on short, very wide weights, and at 33-64 on short K
             with(5, 32768, 512, l), with(24, 24576, 1536, l), with(40, 8192, 512, l),
             // the tiled kernel's split-K plans at 33-64 tokens (one token tile, rows past M never loaded)
             with(40, 4608, 7168, l), with(57, 9216, 7168, l)},
            {auto_variant()});
}

// A small weight on the tiled split above 128 tokens (since a550b71; 576 x 7168: 96 rows split 8 at two
// token tiles, 64 rows split 4 at three, 64 rows split 3 at four, 96 rows split 4 at five), the last
// token tile partial or past M by most of its rows; both scale layouts. Small enough for compute-sanitizer.
TEST_F(GemmTest, SmallWeightOnTheTiledSplit) {
  Layout col;
  col.a_scale = ScaleLayout::kColMajor;
  run_cases({with(129, 576, 7168, Layout{}), with(200, 576, 7168, col), with(320, 576, 7168, Layout{}),
             with(449, 576, 7168, col), with(513, 576, 7168, Layout{})},
            {auto_variant()});
}

// Every token tile x split-K 1..4 of the decode kernel, forced: tails in M (tokens) and N (rows).
TEST_F(GemmTest, ForcedSwapabConfigs) {
  const Layout l;
  std::vector<Variant> variants = all_swapab_configs();
  // A shallow ring wraps around many times per CTA.
  variants.push_back(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 16, 1, 4));     // two warpgroups: 2 stages each
  variants.push_back(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 32, 1, 2, 1));  // one warpgroup, pipelined
  variants.push_back(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 128, 2, 2));
  variants.push_back(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 128, 1, 1));         // one stage, not pipelined
  variants.push_back(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 3, 4, 2, 16));    // many tiles per cluster, shallow ring
  run_cases({with(33, 4097, 512, l), with(4, 7168, 7168, l), with(130, 100, 1024, l), with(1, 64, 512, l)}, variants);
}

// Tile heights that do not divide 128 (40, 48, 56): tiles whose rows cross a b_scale block, at every
// token tile they run at (8-64, two warpgroups) and splits 1-3, with N tails inside such a tile (250:
// its second block lies past N; 4097) and long K (the a_scales by TMA box at 32+ tokens).
TEST_F(GemmTest, ForcedSwapabStraddlingTiles) {
  const Layout l;
  std::vector<Variant> v;
  for (int rows : {40, 48, 56})
    for (int tile : {8, 16, 32, 64})
      for (int split : {1, 3}) v.push_back(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, tile, split, 0, 2, rows));
  v.push_back(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 16, 2, 4, 2, 56));  // shallow ring, several tiles a cluster
  run_cases({with(33, 250, 1024, l), with(7, 4097, 512, l), with(64, 7168, 2048, l), with(40, 300, 16384, l)}, v);
}

// Long K slices at 32+ tokens, where the first tile's a_scales come by one TMA box (scales_by_tma) that
// the math warps lay out as load_scales does: one tile a CTA (M = 33), several tiles a CTA and several
// token tiles (M = 130 on 7168 rows: the later tiles' scales by load_scales), rows past M, a slice just
// past one round of load_scales (split 2), slices that start off a 16-byte boundary of a_scale (split 3:
// k-blocks 0, 42, 85; a box from there faulted in s20 call 1), a slice of 144 k-blocks unsplit (the box
// lands in the next tile's scale buffer), and column-major a_scales (no box).
TEST_F(GemmTest, ForcedSwapabScalesByTma) {
  Layout col;
  col.a_scale = ScaleLayout::kColMajor;
  std::vector<Variant> v;
  for (int tile : {32, 64, 128})
    for (int warpgroups : {0, 1}) v.push_back(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, tile, 1, 0, warpgroups));
  v.push_back(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 32, 2));
  for (int tile : {32, 64}) v.push_back(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, tile, 3, 0, 1));
  run_cases({with(33, 300, 16384, Layout{}), with(130, 7168, 9216, Layout{}), with(20, 300, 16384, col)}, v);
  std::vector<Variant> unsplit;  // 128 tokens: two 144-k-block scale buffers leave no room for a stage
  for (int tile : {32, 64})
    for (int warpgroups : {0, 1}) unsplit.push_back(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, tile, 1, 0, warpgroups));
  run_cases({with(33, 300, 18432, Layout{})}, unsplit);
}

Variant warpmma(int32_t token_tile, int32_t weight_rows, int32_t kblocks, int32_t split_k = 1, int32_t warpgroups = 0) {
  blockfp8_config_t cfg{};
  cfg.kernel = BLOCKFP8_KERNEL_WARP_MMA, cfg.token_tile = token_tile, cfg.weight_rows = weight_rows;
  cfg.stage_kblocks = kblocks, cfg.split_k = split_k, cfg.warpgroups = warpgroups;
  return {blockfp8::config_name(cfg), true, cfg};
}

// Every instantiation of the warp-MMA decode kernel, unsplit and split over clusters of 2 and 3,
// with 4 and 8 warps a CTA (each warp then owns fewer k-blocks than its ring holds, or many rounds).
std::vector<Variant> all_warpmma_configs() {
  std::vector<Variant> v;
#define BLOCKFP8_WARPMMA_VARIANTS(TT, RR, UU)                                                           \
  for (int split : {1, 2, 3})                                                                            \
    for (int wg : {1, 2}) v.push_back(warpmma(TT, RR, UU, split, wg));
  BLOCKFP8_WARPMMA_CONFIGS(BLOCKFP8_WARPMMA_VARIANTS)
#undef BLOCKFP8_WARPMMA_VARIANTS
  return v;
}

// Tails in M (a token tile part full, several token tiles) and N (strips part full, N < one strip),
// K of 1 to 128 k-blocks, odd splits of K.
TEST_F(GemmTest, ForcedWarpMmaConfigs) {
  const Layout l;
  run_cases({with(1, 2112, 7168, l), with(5, 100, 512, l), with(33, 4097, 512, l), with(8, 7, 16384, l),
             with(3, 1, 384, l), with(16, 576, 1536, l), with(2, 4104, 384, l)},
            all_warpmma_configs());
}

// Output dtypes and every scale layout, on the widest and the narrowest instantiation.
TEST_F(GemmTest, ForcedWarpMmaLayouts) {
  auto lay = [](ScaleLayout a, ScaleLayout b, blockfp8_dtype_t t) {
    Layout l;
    l.a_scale = a, l.b_scale = b, l.dtype = t;
    return l;
  };
  using S = ScaleLayout;
  run_cases({with(7, 100, 512, lay(S::kColMajor, S::kRowMajor, BLOCKFP8_DTYPE_FP16)),
             with(33, 4097, 1024, lay(S::kBroadcastK, S::kRowPadded, BLOCKFP8_DTYPE_FP32)),
             with(16, 2112, 512, lay(S::kColPadded, S::kColMajor, BLOCKFP8_DTYPE_BF16)),
             with(1, 7168, 7168, lay(S::kColMajor, S::kColMajor, BLOCKFP8_DTYPE_BF16))},
            {warpmma(8, 16, 8, 1, 2), warpmma(8, 16, 4, 3, 4), warpmma(32, 32, 2, 2, 2)});
}

TEST_F(GemmTest, ForcedSwapabConfigsFp16Fp32) {
  run_cases({with(16, 2112, 512, dtype(BLOCKFP8_DTYPE_FP16)), with(7, 100, 512, dtype(BLOCKFP8_DTYPE_FP32)),
             with(64, 4097, 16384, dtype(BLOCKFP8_DTYPE_FP32))},
            all_swapab_configs());
}

TEST_F(GemmTest, ForcedSimt) {
  run_cases({with(1, 1, 128, Layout{}), with(33, 4097, 512, Layout{}), with(4, 7168, 7168, dtype(BLOCKFP8_DTYPE_FP16)),
             with(130, 100, 1024, dtype(BLOCKFP8_DTYPE_FP32)), with(255, 2112, 7168, Layout{})},
            {simt()});
}

TEST_F(GemmTest, OutputDtypes) {
  const Layout h = dtype(BLOCKFP8_DTYPE_FP16), f = dtype(BLOCKFP8_DTYPE_FP32);
  run_cases({with(1, 7168, 7168, h), with(255, 4097, 128, h), with(1024, 2112, 7168, h), with(64, 2112, 512, f),
             with(3, 7, 16384, f), with(16, 7168, 16384, f)},
            {auto_variant(), simt()});
}

TEST_F(GemmTest, ScaleLayouts) {
  auto lay = [](ScaleLayout a, ScaleLayout b, blockfp8_dtype_t t = BLOCKFP8_DTYPE_BF16) {
    Layout l;
    l.a_scale = a, l.b_scale = b, l.dtype = t;
    return l;
  };
  using S = ScaleLayout;
  run_cases({with(33, 4097, 512, lay(S::kColMajor, S::kRowMajor)), with(4, 7168, 7168, lay(S::kColMajor, S::kRowMajor)),
             with(1, 7168, 7168, lay(S::kColMajor, S::kRowMajor)),  // strides (1, 1): M == 1 ignores stride_m
             with(128, 2112, 7168, lay(S::kColMajor, S::kRowMajor)),  // GPU reference
             with(7, 100, 512, lay(S::kRowMajor, S::kColMajor)), with(16, 4097, 1024, lay(S::kBroadcastK, S::kRowPadded)),
             with(33, 64, 512, lay(S::kColPadded, S::kColPadded)),
             with(64, 2112, 512, lay(S::kColMajor, S::kColMajor, BLOCKFP8_DTYPE_FP16))},
            {auto_variant(), simt(), forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 16, 2)});
}

TEST_F(GemmTest, Padding) {
  std::vector<Case> cases;
  Layout l;
  l.lda_pad = 16, l.ldb_pad = 32, l.ldc_pad = 8;
  cases.push_back(with(7, 4097, 512, l));
  l = Layout{};
  l.ldc_pad = 1;
  cases.push_back(with(33, 100, 7168, l));
  l = dtype(BLOCKFP8_DTYPE_FP32);
  l.lda_pad = 64, l.ldc_pad = 3;
  cases.push_back(with(64, 2112, 512, l));
  l = Layout{};
  l.c_offset = 1;  // C only 2-byte aligned
  cases.push_back(with(16, 7168, 512, l));
  l = dtype(BLOCKFP8_DTYPE_FP32);
  l.c_offset = 1, l.ldc_pad = 1;  // C only 4-byte aligned, odd ldc
  cases.push_back(with(4, 2112, 7168, l));
  l = dtype(BLOCKFP8_DTYPE_FP16);
  l.c_offset = 3, l.ldc_pad = 5, l.lda_pad = 16;
  cases.push_back(with(128, 4097, 512, l));
  // 64 and 128 tokens: the wide pulled sum's quad stores, and its element stores where C's base or pitch
  // does not allow them.
  run_cases(cases, {auto_variant(), simt(), forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 32, 4), warpmma(8, 16, 4, 2, 2),
                    forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 64, 3), forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 128, 1)});
}

// A and B layouts the TMA engine cannot read: the dispatcher must route them to the SIMT kernel.
TEST_F(GemmTest, MisalignedInputsServedByFallback) {
  std::vector<Case> cases;
  Layout l;
  l.a_offset = 1, l.lda_pad = 1;
  cases.push_back(with(7, 4097, 512, l));
  l = Layout{};
  l.b_offset = 1, l.ldb_pad = 1;
  cases.push_back(with(33, 7168, 512, l));
  l = Layout{};
  l.lda_pad = 8;  // aligned base, lda % 16 == 8
  cases.push_back(with(4, 2112, 7168, l));
  l = dtype(BLOCKFP8_DTYPE_FP16);
  l.a_offset = 4, l.b_offset = 2;  // aligned strides, misaligned bases
  cases.push_back(with(16, 100, 512, l));
  run_cases(cases, {auto_variant(), simt()});
}

// Bases 16-byte aligned but not 128-byte aligned are TMA-compatible: the decode kernel must take them.
TEST_F(GemmTest, SixteenByteAlignedInputs) {
  Layout l;
  l.a_offset = 16, l.b_offset = 48, l.lda_pad = 16, l.ldb_pad = 48;
  run_cases({with(1, 7168, 7168, l), with(33, 4097, 512, l)},
            {auto_variant(), forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 1), forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 64, 3)});
}

TEST_F(GemmTest, ForcedSwapabRefusesMisalignedInputs) {
  Layout l;
  l.a_offset = 1, l.lda_pad = 1;
  Instance inst;
  ASSERT_NO_FATAL_FAILURE(inst.init(with(4, 256, 512, l), stream_));
  EXPECT_EQ(inst.call(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 1)), BLOCKFP8_ERROR_INVALID_CONFIG);
  l = Layout{};
  l.ldb_pad = 8;
  Instance inst2;
  ASSERT_NO_FATAL_FAILURE(inst2.init(with(4, 256, 512, l), stream_));
  EXPECT_EQ(inst2.call(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 8, 1)), BLOCKFP8_ERROR_INVALID_CONFIG);
  CUDA_ASSERT(cudaStreamSynchronize(stream_));
}

TEST_F(GemmTest, InvalidForcedConfigs) {
  Instance inst;
  ASSERT_NO_FATAL_FAILURE(inst.init(with(4, 256, 512, Layout{}), stream_));
  EXPECT_EQ(inst.call(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 7, 1)), BLOCKFP8_ERROR_INVALID_CONFIG);
  EXPECT_EQ(inst.call(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 16, 9)), BLOCKFP8_ERROR_INVALID_CONFIG);
  EXPECT_EQ(inst.call(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 16, 0)), BLOCKFP8_ERROR_INVALID_CONFIG);
  EXPECT_EQ(inst.call(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 16, 1, 0, 3)), BLOCKFP8_ERROR_INVALID_CONFIG);
  // Tiles across b_scale blocks: two warpgroups at up to 64 tokens only, heights of 8-row multiples.
  EXPECT_EQ(inst.call(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 16, 1, 0, 1, 56)), BLOCKFP8_ERROR_INVALID_CONFIG);
  EXPECT_EQ(inst.call(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 128, 1, 0, 2, 48)), BLOCKFP8_ERROR_INVALID_CONFIG);
  EXPECT_EQ(inst.call(forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 16, 1, 0, 2, 44)), BLOCKFP8_ERROR_INVALID_CONFIG);
  EXPECT_EQ(inst.call(forced(99)), BLOCKFP8_ERROR_INVALID_CONFIG);
  CUDA_ASSERT(cudaStreamSynchronize(stream_));
  // Nothing ran: C is still all poison.
  std::vector<uint8_t> buf;
  ASSERT_NO_FATAL_FAILURE(inst.fetch(buf));
  EXPECT_TRUE(std::all_of(buf.begin(), buf.end(), [](uint8_t x) { return x == 0xff; }));
}

// M == 0 is a no-op: A, a_scale and C may be NULL; a real C is left untouched.
TEST_F(GemmTest, ZeroMIsANoOp) {
  Instance inst;
  ASSERT_NO_FATAL_FAILURE(inst.init(with(1, 256, 512, Layout{}), stream_));
  const GemmOperands d = inst.device_operands();
  inst.poison();
  EXPECT_EQ(blockfp8_gemm(0, d.n, d.k, nullptr, d.lda, nullptr, 4, 1, d.b, d.ldb, d.b_scale, d.b_scale_stride_n,
                          d.b_scale_stride_k, nullptr, d.n, BLOCKFP8_DTYPE_BF16, stream_),
            BLOCKFP8_SUCCESS);
  EXPECT_EQ(blockfp8_gemm(0, d.n, d.k, d.a, d.lda, d.a_scale, 1, 0, d.b, d.ldb, d.b_scale, d.b_scale_stride_n,
                          d.b_scale_stride_k, inst.c(), d.n, BLOCKFP8_DTYPE_BF16, stream_),
            BLOCKFP8_SUCCESS);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaStreamSynchronize(stream_));
  std::vector<uint8_t> buf;
  ASSERT_NO_FATAL_FAILURE(inst.fetch(buf));
  EXPECT_TRUE(std::all_of(buf.begin(), buf.end(), [](uint8_t x) { return x == 0xff; })) << "M == 0 wrote to C";
}

// blockfp8_gemm, blockfp8_gemm_ex with NULL / AUTO, and blockfp8_gemm_ex with the plan's config
// are one computation: bitwise identical results.
TEST_F(GemmTest, PlanAndAutoAgree) {
  for (const Case& c : {with(1, 7168, 7168, Layout{}), with(33, 4097, 512, Layout{}), with(255, 2112, 7168, Layout{})}) {
    SCOPED_TRACE(describe(c) + "; " + seed_note());
    blockfp8_config_t plan{};
    ASSERT_EQ(blockfp8_gemm_plan(c.m, c.n, c.k, &plan), BLOCKFP8_SUCCESS);
    EXPECT_NE(plan.kernel, BLOCKFP8_KERNEL_AUTO);
    const std::string plan_name = blockfp8::config_name(plan);
    EXPECT_FALSE(plan_name.empty());
    Instance inst;
    ASSERT_NO_FATAL_FAILURE(inst.init(c, stream_));
    ASSERT_NO_FATAL_FAILURE(inst.compute_reference());
    std::vector<uint8_t> ref_run, other;
    ASSERT_NO_FATAL_FAILURE(inst.run(auto_variant(), ref_run));
    ASSERT_NO_FATAL_FAILURE(inst.check(ref_run, "auto"));
    const Variant variants[] = {{"ex(AUTO)", true, blockfp8_config_t{}}, {"plan " + plan_name, true, plan}};
    for (const Variant& v : variants) {
      ASSERT_NO_FATAL_FAILURE(inst.run(v, other));
      EXPECT_TRUE(other == ref_run) << v.name << " differs from blockfp8_gemm";
    }
    // blockfp8_gemm_ex(config = NULL).
    const GemmOperands d = inst.device_operands();
    inst.poison();
    ASSERT_EQ(blockfp8_gemm_ex(d.m, d.n, d.k, d.a, d.lda, d.a_scale, d.a_scale_stride_m, d.a_scale_stride_k, d.b,
                               d.ldb, d.b_scale, d.b_scale_stride_n, d.b_scale_stride_k, inst.c(), d.n,
                               BLOCKFP8_DTYPE_BF16, nullptr, stream_),
              BLOCKFP8_SUCCESS);
    CUDA_ASSERT(cudaStreamSynchronize(stream_));
    ASSERT_NO_FATAL_FAILURE(inst.fetch(other));
    EXPECT_TRUE(other == ref_run) << "blockfp8_gemm_ex(config = NULL) differs from blockfp8_gemm";
  }
}

// blockfp8_config_resolve fills a forced configuration's defaults as blockfp8_gemm_ex does: the plan
// resolves to itself, a tiled configuration left at its defaults to the dispatcher's tiled pick (where
// that is tiled), and the resolved form computes the bits the unresolved one does. Refusals as gemm_ex's.
TEST_F(GemmTest, ConfigResolveIsWhatRuns) {
  blockfp8_config_t cfg{};
  EXPECT_EQ(blockfp8_config_resolve(4, 256, 512, nullptr), BLOCKFP8_ERROR_INVALID_VALUE);
  EXPECT_EQ(blockfp8_config_resolve(4, 256, 500, &cfg), BLOCKFP8_ERROR_K_NOT_MULTIPLE_OF_128);
  cfg.kernel = BLOCKFP8_KERNEL_SWAPAB_SPLITK, cfg.token_tile = 24, cfg.split_k = 1;
  EXPECT_EQ(blockfp8_config_resolve(4, 256, 512, &cfg), BLOCKFP8_ERROR_INVALID_CONFIG) << "token tile 24";
  for (const Case& c : {with(512, 24576, 1536, Layout{}), with(300, 2112, 7168, Layout{}), with(16, 2112, 7168, Layout{})}) {
    SCOPED_TRACE(describe(c) + "; " + seed_note());
    blockfp8_config_t plan{}, again{};
    ASSERT_EQ(blockfp8_gemm_plan(c.m, c.n, c.k, &plan), BLOCKFP8_SUCCESS);
    again = plan;
    ASSERT_EQ(blockfp8_config_resolve(c.m, c.n, c.k, &again), BLOCKFP8_SUCCESS);
    EXPECT_EQ(blockfp8::config_name(again), blockfp8::config_name(plan)) << "the plan resolves to itself";
    blockfp8_config_t forced{};
    forced.kernel = BLOCKFP8_KERNEL_TILED;  // every other field: the tiled kernel's default
    blockfp8_config_t resolved = forced;
    ASSERT_EQ(blockfp8_config_resolve(c.m, c.n, c.k, &resolved), BLOCKFP8_SUCCESS);
    EXPECT_NE(resolved.weight_rows, 0);
    EXPECT_NE(resolved.stages, 0);
    if (plan.kernel == BLOCKFP8_KERNEL_TILED)
      EXPECT_EQ(blockfp8::config_name(resolved), blockfp8::config_name(plan)) << "the tiled defaults are the pick";
    Instance inst;
    ASSERT_NO_FATAL_FAILURE(inst.init(c, stream_));
    ASSERT_NO_FATAL_FAILURE(inst.compute_reference());
    std::vector<uint8_t> as_forced, as_resolved;
    ASSERT_NO_FATAL_FAILURE(inst.run({"forced tiled defaults", true, forced}, as_forced));
    ASSERT_NO_FATAL_FAILURE(inst.check(as_forced, "forced tiled defaults"));
    ASSERT_NO_FATAL_FAILURE(inst.run({"resolved " + blockfp8::config_name(resolved), true, resolved}, as_resolved));
    EXPECT_TRUE(as_resolved == as_forced) << "the resolved configuration computes other bits";
  }
}

// The C++ wrapper (blockfp8.hpp) computes the same as the C ABI.
TEST_F(GemmTest, CppWrapper) {
  Layout l;
  l.a_scale = ScaleLayout::kColMajor;
  Instance inst;
  ASSERT_NO_FATAL_FAILURE(inst.init(with(33, 4097, 512, l), stream_));
  ASSERT_NO_FATAL_FAILURE(inst.compute_reference());
  const GemmOperands d = inst.device_operands();
  blockfp8::Gemm g;
  g.m = d.m, g.n = d.n, g.k = d.k;
  g.a = d.a, g.b = d.b, g.c = inst.c();
  g.a_scale.ptr = d.a_scale, g.b_scale.ptr = d.b_scale;
  g.row_major_scales().column_major_a_scale();
  inst.poison();
  ASSERT_EQ(g.run(stream_), BLOCKFP8_SUCCESS);
  CUDA_ASSERT(cudaStreamSynchronize(stream_));
  std::vector<uint8_t> buf;
  ASSERT_NO_FATAL_FAILURE(inst.fetch(buf));
  inst.check(buf, "blockfp8::Gemm");
}

// Calls are capturable into a CUDA graph; the replay computes what the eager call computes.
TEST_F(GemmTest, GraphCapture) {
  Instance inst;
  ASSERT_NO_FATAL_FAILURE(inst.init(with(16, 7168, 7168, Layout{}), stream_));
  ASSERT_NO_FATAL_FAILURE(inst.compute_reference());
  for (const Variant& v : {auto_variant(), forced(BLOCKFP8_KERNEL_SWAPAB_SPLITK, 16, 4), simt()}) {
    SCOPED_TRACE(v.name);
    std::vector<uint8_t> eager, replay;
    ASSERT_NO_FATAL_FAILURE(inst.run(v, eager));
    inst.poison();
    CUDA_ASSERT(cudaStreamSynchronize(stream_));
    cudaGraph_t graph = nullptr;
    CUDA_ASSERT(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    const blockfp8_status_t st = inst.call(v, /*poison=*/false);
    const cudaError_t end = cudaStreamEndCapture(stream_, &graph);
    ASSERT_EQ(st, BLOCKFP8_SUCCESS) << blockfp8_status_string(st);
    CUDA_ASSERT(end);
    cudaGraphExec_t exec = nullptr;
    CUDA_ASSERT(cudaGraphInstantiate(&exec, graph, 0));
    CUDA_ASSERT(cudaGraphLaunch(exec, stream_));
    CUDA_ASSERT(cudaStreamSynchronize(stream_));
    EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
    EXPECT_EQ(cudaGraphDestroy(graph), cudaSuccess);
    ASSERT_NO_FATAL_FAILURE(inst.fetch(replay));
    inst.check(replay, v.name + " (graph)");
    EXPECT_TRUE(replay == eager) << "graph replay differs from the eager call";
  }
}

}  // namespace
}  // namespace bf8test
