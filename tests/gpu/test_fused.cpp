// GPU suite of blockfp8_gemm_bf16a (the GEMM from unquantised activations). Its contract is a bitwise
// one: the output must be exactly what blockfp8_quantize_1x128 (row-major scales) followed by
// blockfp8_gemm gives on the same arguments. Every case here runs both and compares C byte for byte:
//
//   - the two outputs are poisoned with different bytes first (the reference with 0xFF, a NaN in
//     every dtype; the fused output with 0xFE, a finite -1.7e38 no product here reaches), so an
//     element the fused call skipped cannot match, and the reference must have no NaN left;
//   - C's row padding (ldc > N) must keep each output's poison;
//   - blockfp8_gemm_bf16a runs with exactly the workspace blockfp8_gemm_bf16a_workspace_size asks for
//     (NULL when it says 0: the one-launch path), and again with a generous one.
//
// Inputs are fresh per run (the suite's seed, printed on failure; BLOCKFP8_TEST_SEED replays it) and
// never all zeros: X has groups of ordinary values at magnitudes 2^-40..2^40, groups whose elements
// spread over 2^-60..2^60 (fp16: its own range, subnormals included), now and then an all-zero group
// (never a row's first), and every fifth row (from row 3) all zeros; X's row padding holds huge
// values that would show in a group's amax if read. B is random e4m3 (every code but NaN), b_scale
// log-uniform in [2^-8, 2^-4].
// AgainstCpuReference checks the results against the CPU quantiser + CPU GEMM references
// (tests/common), independent of the library's own quantiser.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "blockfp8/blockfp8.h"
#include "fp8.h"
#include "gpu_reference.h"
#include "gpu_test_util.h"
#include "quantize_reference.h"
#include "random.h"
#include "reference.h"

namespace bf8test {
namespace {

constexpr uint8_t kRefPoison = 0xFF;    // NaN in bf16 / fp16 / fp32
constexpr uint8_t kFusedPoison = 0xFE;  // -1.69e38 in bf16 and fp32: finite, and never a result here
constexpr size_t kGenerousWorkspace = size_t(16) << 20;

const char* fmt_name(blockfp8_scale_format_t f) { return f == BLOCKFP8_SCALE_UE8M0 ? "ue8m0" : "fp32-scale"; }

// ---- inputs ---------------------------------------------------------------------------------------

// X [m][ldx] of dtype t (host bytes, the padding included).
void fill_x(std::vector<uint8_t>& x, int64_t m, int64_t k, int64_t ldx, blockfp8_dtype_t t, uint64_t seed) {
  x.assign(size_t(m * ldx * dtype_bytes(t)), 0);
  const bool half = t == BLOCKFP8_DTYPE_FP16;
  const float big = half ? 60000.0f : 1e30f;
  const int mag_lo = half ? -14 : -40, mag_hi = half ? 12 : 40;   // ordinary groups' magnitude exponent
  const int wide_lo = half ? -24 : -60, wide_hi = half ? 14 : 60;  // spread groups' element exponents
  uint64_t ctr = 0;
  auto unit = [&] { return random_unit(seed, ctr++); };
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t c = k; c < ldx; ++c) store_output(x.data(), r * ldx + c, t, (c & 1) ? -big : big);
    const bool zero_row = r % 5 == 3;
    for (int64_t kb = 0; kb < k / 128; ++kb) {
      const uint64_t kind = random_u64(seed ^ 0x6b696e64ull, uint64_t(r) * 100003 + uint64_t(kb)) % 16;
      const float mag = std::ldexp(1.0f, mag_lo + int(unit() * (mag_hi - mag_lo)));
      for (int i = 0; i < 128; ++i) {
        const int64_t idx = r * ldx + kb * 128 + i;
        const float sgn = unit() < 0.5 ? -1.0f : 1.0f;
        float v;
        if (zero_row || (kind == 15 && kb % 2 == 1)) {  // (group 0 of a row is never all zeros)
          v = sgn * 0.0f;  // signed zeros: the eps clamp of amax
        } else if (kind >= 10) {
          v = sgn * float(1.0 + unit()) * std::ldexp(1.0f, wide_lo + int(unit() * (wide_hi - wide_lo)));
        } else {
          v = sgn * mag * float(0.5 + 0.5 * unit()) * std::ldexp(1.0f, -int(unit() * 8));
        }
        store_output(x.data(), idx, t, v);
      }
    }
  }
}

// X on the device at `offset_bytes` past a 256-byte aligned allocation, with its host copy.
struct XTensor {
  int64_t m = 0, k = 0, ldx = 0;
  blockfp8_dtype_t t = BLOCKFP8_DTYPE_BF16;
  int64_t offset = 0;
  DeviceBuffer d;
  std::vector<uint8_t> host;  // [m][ldx]
  const void* ptr() const { return d.get() + offset; }
  std::string str() const {
    return "X " + std::string(dtype_name(t)) + " M=" + std::to_string(m) + " K=" + std::to_string(k) +
           " ldx=" + std::to_string(ldx) + " +" + std::to_string(offset) + "B";
  }
};

void make_x(XTensor& x, int64_t m, int64_t k, int64_t ldx, blockfp8_dtype_t t, int64_t offset, uint64_t seed) {
  x.m = m, x.k = k, x.ldx = ldx, x.t = t, x.offset = offset;
  fill_x(x.host, m, k, ldx, t, seed);
  CUDA_ASSERT(x.d.alloc(size_t(offset) + x.host.size()));
  CUDA_ASSERT(cudaMemcpy(x.d.get() + offset, x.host.data(), x.host.size(), cudaMemcpyHostToDevice));
}

// B [n][ldb] e4m3 and b_scale [ceil(N/128)][K/128] (row-major, or column-major: strides (1, NB)).
struct Weights {
  int64_t n = 0, k = 0, ldb = 0, sb_n = 0, sb_k = 0;
  DeviceBuffer b, bs;
  std::vector<uint8_t> hb;  // filled by host_copy()
  std::vector<float> hbs;
  std::string str() const {
    return "N=" + std::to_string(n) + " K=" + std::to_string(k) + " ldb=" + std::to_string(ldb) +
           " b_scale=(" + std::to_string(sb_n) + "," + std::to_string(sb_k) + ")";
  }
};

void make_weights(Weights& w, int64_t n, int64_t k, uint64_t seed, cudaStream_t stream, int64_t ldb_pad = 0,
                  bool col_scales = false) {
  const int64_t kb = k / 128, nb = (n + 127) / 128;
  w.n = n, w.k = k, w.ldb = k + ldb_pad;
  w.sb_n = col_scales ? 1 : kb, w.sb_k = col_scales ? nb : 1;
  CUDA_ASSERT(w.b.alloc(size_t((n - 1) * w.ldb + k)));
  CUDA_ASSERT(cudaMemsetAsync(w.b.get(), kE4m3NaN, w.b.bytes(), stream));  // padding: NaN
  CUDA_ASSERT(fill_e4m3_device(w.b.get(), n, k, w.ldb, derive_seed(seed, 1), stream));
  w.hbs.assign(size_t(nb * kb), 0.0f);
  const uint64_t ss = derive_seed(seed, 2);
  for (int64_t i = 0; i < nb; ++i)
    for (int64_t j = 0; j < kb; ++j) w.hbs[size_t(i * w.sb_n + j * w.sb_k)] = random_scale(ss, uint64_t(i * kb + j), -8, -4);
  CUDA_ASSERT(w.bs.alloc(w.hbs.size() * 4));
  CUDA_ASSERT(cudaMemcpyAsync(w.bs.get(), w.hbs.data(), w.hbs.size() * 4, cudaMemcpyHostToDevice, stream));
  CUDA_ASSERT(cudaStreamSynchronize(stream));
}

void host_copy(Weights& w) {
  w.hb.resize(w.b.bytes());
  CUDA_ASSERT(cudaMemcpy(w.hb.data(), w.b.get(), w.hb.size(), cudaMemcpyDeviceToHost));
}

// ---- one comparison -------------------------------------------------------------------------------

// Device scratch reused across cases: the reference's X_q and scales, both outputs.
struct Scratch {
  DeviceBuffer q, s, c_ref, c_fused, generous;
  void reserve(DeviceBuffer& b, size_t bytes) {
    if (b.bytes() < bytes) {
      ASSERT_EQ(b.alloc(bytes), cudaSuccess);
    }
  }
};

struct Call {
  int64_t m = 0, ldc_pad = 0;
  blockfp8_dtype_t c_dtype = BLOCKFP8_DTYPE_BF16;
  blockfp8_scale_format_t fmt = BLOCKFP8_SCALE_FP32;
  std::string str(const XTensor& x, const Weights& w) const {
    return w.str() + " M=" + std::to_string(m) + " C " + dtype_name(c_dtype) + " ldc=N+" + std::to_string(ldc_pad) +
           " " + fmt_name(fmt) + "; " + x.str();
  }
};

// What the checks saw, for the suites' path assertions.
struct Tally {
  int cases = 0, one_launch = 0, two_launch = 0;
};

int64_t c_bytes(const Call& c, const Weights& w) { return c.m * (w.n + c.ldc_pad) * dtype_bytes(c.c_dtype); }

// The reference: blockfp8_quantize_1x128 into dense X_q / row-major scales, then blockfp8_gemm.
// Leaves the result (poisoned first with kRefPoison) in s.c_ref and its host copy in `out`.
void run_reference(const XTensor& x, const Weights& w, const Call& c, Scratch& s, cudaStream_t stream,
                   std::vector<uint8_t>& out) {
  const int64_t m = c.m, k = w.k, kb = k / 128, ldc = w.n + c.ldc_pad;
  ASSERT_NO_FATAL_FAILURE(s.reserve(s.q, size_t(m * k)));
  ASSERT_NO_FATAL_FAILURE(s.reserve(s.s, size_t(m * kb * 4)));
  ASSERT_NO_FATAL_FAILURE(s.reserve(s.c_ref, size_t(c_bytes(c, w))));
  CUDA_ASSERT(cudaMemsetAsync(s.c_ref.get(), kRefPoison, size_t(c_bytes(c, w)), stream));
  blockfp8_status_t st = blockfp8_quantize_1x128(m, k, x.ptr(), x.ldx, x.t, s.q.get(), k, s.s.get<float>(), kb, 1,
                                                 c.fmt, stream);
  ASSERT_EQ(st, BLOCKFP8_SUCCESS) << "quantize: " << blockfp8_status_string(st);
  st = blockfp8_gemm(m, w.n, k, s.q.get(), k, s.s.get<float>(), kb, 1, w.b.get(), w.ldb, w.bs.get<float>(), w.sb_n,
                     w.sb_k, s.c_ref.get(), ldc, c.c_dtype, stream);
  ASSERT_EQ(st, BLOCKFP8_SUCCESS) << "gemm: " << blockfp8_status_string(st);
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  out.resize(size_t(c_bytes(c, w)));
  CUDA_ASSERT(cudaMemcpy(out.data(), s.c_ref.get(), out.size(), cudaMemcpyDeviceToHost));
  // Every element of the reference written (finite inputs give no NaN), its padding untouched.
  int64_t nan = 0, pad = 0, nonzero = 0;
  const int64_t es = dtype_bytes(c.c_dtype);
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t j = 0; j < w.n; ++j) {
      const double v = load_output(out.data(), r * ldc + j, c.c_dtype);
      nan += std::isnan(v) ? 1 : 0;
      nonzero += v != 0 ? 1 : 0;
    }
    for (int64_t b = w.n * es; b < ldc * es; ++b) pad += out[size_t(r * ldc * es + b)] != kRefPoison;
  }
  EXPECT_EQ(nan, 0) << "quantize + gemm left NaN elements (unwritten?)";
  EXPECT_EQ(pad, 0) << "quantize + gemm wrote C's row padding";
  EXPECT_GT(nonzero, 0) << "degenerate data: C all zeros";
}

// blockfp8_gemm_bf16a into s.c_fused (poisoned with kFusedPoison first); host copy in `out`.
void run_fused(const XTensor& x, const Weights& w, const Call& c, void* ws, size_t ws_bytes, Scratch& s,
               cudaStream_t stream, std::vector<uint8_t>& out) {
  ASSERT_NO_FATAL_FAILURE(s.reserve(s.c_fused, size_t(c_bytes(c, w))));
  CUDA_ASSERT(cudaMemsetAsync(s.c_fused.get(), kFusedPoison, size_t(c_bytes(c, w)), stream));
  const blockfp8_status_t st =
      blockfp8_gemm_bf16a(c.m, w.n, w.k, x.ptr(), x.ldx, x.t, w.b.get(), w.ldb, w.bs.get<float>(), w.sb_n, w.sb_k,
                          s.c_fused.get(), w.n + c.ldc_pad, c.c_dtype, c.fmt, ws, ws_bytes, stream);
  ASSERT_EQ(st, BLOCKFP8_SUCCESS) << "blockfp8_gemm_bf16a (workspace " << ws_bytes
                                  << " bytes): " << blockfp8_status_string(st);
  CUDA_ASSERT(cudaGetLastError());
  CUDA_ASSERT(cudaStreamSynchronize(stream));
  out.resize(size_t(c_bytes(c, w)));
  CUDA_ASSERT(cudaMemcpy(out.data(), s.c_fused.get(), out.size(), cudaMemcpyDeviceToHost));
}

// Bitwise: the N elements of every row equal; the row padding of the fused output still its poison.
void expect_bitwise(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, const Weights& w, const Call& c,
                    const char* what) {
  const int64_t es = dtype_bytes(c.c_dtype), ldc = w.n + c.ldc_pad, row_bytes = w.n * es;
  int64_t differ = 0, unwritten = 0, pad = 0, first_r = -1, first_j = -1;
  for (int64_t r = 0; r < c.m; ++r) {
    const uint8_t* g = got.data() + r * ldc * es;
    const uint8_t* e = want.data() + r * ldc * es;
    if (std::memcmp(g, e, size_t(row_bytes)) != 0) {
      for (int64_t j = 0; j < w.n; ++j) {
        if (std::memcmp(g + j * es, e + j * es, size_t(es)) == 0) continue;
        if (differ++ == 0) first_r = r, first_j = j;
        bool poison = true;
        for (int64_t b = 0; b < es; ++b) poison = poison && g[j * es + b] == kFusedPoison;
        unwritten += poison;
      }
    }
    for (int64_t b = row_bytes; b < ldc * es; ++b) pad += g[b] != kFusedPoison;
  }
  if (differ) {
    const int64_t idx = first_r * ldc + first_j;
    ADD_FAILURE() << what << ": " << differ << " of " << c.m * w.n << " elements differ from quantize + gemm ("
                  << unwritten << " never written); first at (" << first_r << ", " << first_j
                  << "): got " << load_output(got.data(), idx, c.c_dtype) << ", want "
                  << load_output(want.data(), idx, c.c_dtype);
  }
  EXPECT_EQ(pad, 0) << what << ": C's row padding written";
}

// The whole check of one call: reference, fused with the exact workspace, fused with a generous one.
// Counts (in tally) whether the one-launch path served it (workspace size 0).
void check_call(const XTensor& x, const Weights& w, const Call& c, Scratch& s, cudaStream_t stream, Tally& tally,
                std::vector<uint8_t>* fused_out = nullptr, bool generous = true) {
  SCOPED_TRACE(c.str(x, w));
  size_t ws = 1;
  const blockfp8_status_t st =
      blockfp8_gemm_bf16a_workspace_size(c.m, w.n, w.k, x.ptr(), x.ldx, x.t, w.b.get(), w.ldb, &ws);
  ASSERT_EQ(st, BLOCKFP8_SUCCESS) << blockfp8_status_string(st);
  // Documented: one launch only for M <= 32, bf16 X, 16-byte aligned with ldx % 8 == 0.
  const bool may_fuse = c.m <= 32 && x.t == BLOCKFP8_DTYPE_BF16 && reinterpret_cast<uintptr_t>(x.ptr()) % 16 == 0 &&
                        x.ldx % 8 == 0;
  if (!may_fuse) {
    EXPECT_GT(ws, 0u) << "a call the one-launch path cannot serve must ask for a workspace";
  }
  if (ws > 0) {  // the two-launch path quantises into it: X_q [M][K] and the scales [M][K/128]
    const size_t need = size_t(c.m * w.k) + size_t(c.m * (w.k / 128)) * 4;
    EXPECT_GE(ws, need) << "less than X_q and its scales";
  }
  ++tally.cases;
  ++(ws == 0 ? tally.one_launch : tally.two_launch);

  std::vector<uint8_t> want, got;
  ASSERT_NO_FATAL_FAILURE(run_reference(x, w, c, s, stream, want));

  // Exactly the workspace asked for (its own allocation, so a write past it is memcheck's to see);
  // none at all when the answer is 0.
  DeviceBuffer exact;
  if (ws > 0) CUDA_ASSERT(exact.alloc(ws));
  ASSERT_NO_FATAL_FAILURE(run_fused(x, w, c, ws ? exact.get() : nullptr, ws, s, stream, got));
  expect_bitwise(got, want, w, c, ws ? "exact workspace" : "one launch, no workspace");

  if (generous) {
    ASSERT_NO_FATAL_FAILURE(s.reserve(s.generous, kGenerousWorkspace));
    ASSERT_NO_FATAL_FAILURE(run_fused(x, w, c, s.generous.get(), s.generous.bytes(), s, stream, got));
    expect_bitwise(got, want, w, c, "generous workspace");
  }
  if (fused_out) *fused_out = got;
}

// check_call for both scale formats and both output dtypes (bf16, fp32), stopping at the first failure.
void check_formats_and_dtypes(const XTensor& x, const Weights& w, int64_t m, int64_t ldc_pad, Scratch& s,
                              cudaStream_t stream, Tally& tally) {
  for (auto fmt : {BLOCKFP8_SCALE_FP32, BLOCKFP8_SCALE_UE8M0})
    for (auto ct : {BLOCKFP8_DTYPE_BF16, BLOCKFP8_DTYPE_FP32}) {
      Call c;
      c.m = m, c.ldc_pad = ldc_pad, c.c_dtype = ct, c.fmt = fmt;
      check_call(x, w, c, s, stream, tally);
      if (::testing::Test::HasFailure()) return;
    }
}

class FusedTest : public HopperTest {};

uint64_t case_seed(uint64_t salt) { return derive_seed(test_seed(), 0xf05edull + salt); }

// ---- the shape sweep ------------------------------------------------------------------------------

// Every (N, K) of the sweep, each M of `ms`, both scale formats and both output dtypes (X generated
// once per (K, M), B once per (N, K)).
void sweep(const std::vector<int64_t>& ms, uint64_t salt, cudaStream_t stream, Tally& tally) {
  const int64_t ns[] = {2112, 576, 7168, 4097, 1, 65};
  const int64_t ks[] = {128, 512, 7168, 16384};
  Scratch s;
  for (int64_t k : ks) {
    std::vector<XTensor> xs(ms.size());
    for (size_t i = 0; i < ms.size(); ++i) {
      ASSERT_NO_FATAL_FAILURE(make_x(xs[i], ms[i], k, k, BLOCKFP8_DTYPE_BF16, 0,
                                     case_seed(salt + uint64_t(k) * 1000 + uint64_t(ms[i]))));
    }
    for (int64_t n : ns) {
      Weights w;
      ASSERT_NO_FATAL_FAILURE(make_weights(w, n, k, case_seed(salt + uint64_t(n) * 100000 + uint64_t(k)), stream));
      for (size_t i = 0; i < ms.size(); ++i) {
        check_formats_and_dtypes(xs[i], w, ms[i], 0, s, stream, tally);
        if (::testing::Test::HasFailure()) return;  // one failing case says enough; keep the log short
      }
    }
  }
}

TEST_F(FusedTest, DecodeShapesBitwiseMatchQuantizeThenGemm) {
  SCOPED_TRACE(seed_note());
  Tally t;
  sweep({1, 2, 7, 8, 9, 16, 17, 31, 32}, 1, stream_, t);
  std::printf("[ fused    ] %d calls: %d one launch, %d two launches\n", t.cases, t.one_launch, t.two_launch);
  EXPECT_GT(t.one_launch, 0) << "no decode shape took the one-launch path";
}

TEST_F(FusedTest, FallbackShapesBitwiseMatchQuantizeThenGemm) {
  SCOPED_TRACE(seed_note());
  Tally t;
  // 200, 301: the tiled kernel, column-major workspace scales (row-major below 128 tokens)
  sweep({33, 64, 200, 301}, 2, stream_, t);
  EXPECT_EQ(t.one_launch, 0) << "M > 32 must take the two-launch path";
}

// Where the dispatcher gives the tiled kernel fewer than 128 tokens (short, very wide weights from 5
// tokens; 32+ tiles of short K from 33), the two launches lay the workspace scales row-major.
TEST_F(FusedTest, TiledPlanBelowOneTokenTile) {
  SCOPED_TRACE(seed_note());
  Scratch s;
  Tally t;
  for (const auto [m, n, k] : {std::array<int64_t, 3>{5, 32768, 512}, {24, 24576, 1536}, {40, 8192, 512}}) {
    blockfp8_config_t plan{};
    ASSERT_EQ(blockfp8_gemm_plan(m, n, k, &plan), BLOCKFP8_SUCCESS);
    EXPECT_EQ(plan.kernel, BLOCKFP8_KERNEL_TILED) << m << " x " << n << " x " << k;
    Weights w;
    ASSERT_NO_FATAL_FAILURE(make_weights(w, n, k, case_seed(uint64_t(n) + uint64_t(m)), stream_));
    XTensor x;
    ASSERT_NO_FATAL_FAILURE(make_x(x, m, k, k, BLOCKFP8_DTYPE_BF16, 0, case_seed(7000 + uint64_t(m))));
    check_formats_and_dtypes(x, w, m, 0, s, stream_, t);
    if (HasFailure()) return;
  }
  EXPECT_EQ(t.one_launch, 0);
}

// Every M from 1 to 32 on the primary decode shape (DeepSeek's fused_qkv_a, 2112 x 7168): one launch
// at M = 1 (the warp-MMA kernel's fused form: 56 groups, one pass of loads), two above, bitwise equal
// to quantiser + GEMM on both.
TEST_F(FusedTest, EveryMUpTo32OnThePrimaryShape) {
  SCOPED_TRACE(seed_note());
  Weights w;
  ASSERT_NO_FATAL_FAILURE(make_weights(w, 2112, 7168, case_seed(3), stream_));
  Scratch s;
  Tally t;
  for (int64_t m = 1; m <= 32; ++m) {
    XTensor x;
    ASSERT_NO_FATAL_FAILURE(make_x(x, m, 7168, 7168, BLOCKFP8_DTYPE_BF16, 0, case_seed(100 + uint64_t(m))));
    check_formats_and_dtypes(x, w, m, 0, s, stream_, t);
    if (HasFailure()) return;
  }
  EXPECT_EQ(t.one_launch, 1 * 4);
  EXPECT_EQ(t.two_launch, 31 * 4);
}

// ---- which path -----------------------------------------------------------------------------------

// blockfp8_gemm_bf16a_workspace_size answers 0 exactly when the one-launch (fused decode kernel) path
// serves the call, so these assert which path is taken: on kv_a (576 x 7168: the warp-MMA kernel split
// 3 at M <= 8, 19 k-blocks a K slice), aligned bf16 X and M <= 3 must be one launch (M x 19 <= 64
// groups, one pass of loads); M = 4..32, M = 64, fp16 / fp32 X, X off 16-byte alignment and
// ldx % 8 != 0 must be two.
TEST_F(FusedTest, WorkspaceSizeSaysOneLaunchForDecode) {
  const int64_t n = 576, k = 7168;
  DeviceBuffer x, b;
  CUDA_ASSERT(x.alloc(size_t(64 * (k + 8) * 4 + 64)));
  CUDA_ASSERT(b.alloc(size_t(n * k)));
  auto size = [&](int64_t m, const void* xp, int64_t ldx, blockfp8_dtype_t t) {
    size_t bytes = 12345;
    const blockfp8_status_t st = blockfp8_gemm_bf16a_workspace_size(m, n, k, xp, ldx, t, b.get(), k, &bytes);
    EXPECT_EQ(st, BLOCKFP8_SUCCESS) << blockfp8_status_string(st);
    return bytes;
  };
  const size_t two_launch_64 = size_t(64 * k) + size_t(64 * (k / 128)) * 4;
  for (int64_t m = 1; m <= 32; ++m) {
    if (m <= 3) {
      EXPECT_EQ(size(m, x.get(), k, BLOCKFP8_DTYPE_BF16), 0u) << "M=" << m << ": not the one-launch path";
      EXPECT_EQ(size(m, x.get() + 16, k + 8, BLOCKFP8_DTYPE_BF16), 0u) << "M=" << m << " X+16B, ldx=K+8";
    } else {
      EXPECT_GT(size(m, x.get(), k, BLOCKFP8_DTYPE_BF16), 0u) << "M=" << m << ": too many groups to fuse";
    }
    EXPECT_GT(size(m, x.get(), k, BLOCKFP8_DTYPE_FP16), 0u) << "M=" << m << " fp16 X";
    EXPECT_GT(size(m, x.get(), k, BLOCKFP8_DTYPE_FP32), 0u) << "M=" << m << " fp32 X";
    EXPECT_GT(size(m, x.get() + 2, k, BLOCKFP8_DTYPE_BF16), 0u) << "M=" << m << " X+2B";
    EXPECT_GT(size(m, x.get(), k + 3, BLOCKFP8_DTYPE_BF16), 0u) << "M=" << m << " ldx=K+3";
  }
  EXPECT_GE(size(64, x.get(), k, BLOCKFP8_DTYPE_BF16), two_launch_64) << "M=64";
  EXPECT_GT(size(33, x.get(), k, BLOCKFP8_DTYPE_BF16), 0u) << "M=33";
  EXPECT_EQ(size(0, nullptr, k, BLOCKFP8_DTYPE_BF16), 0u) << "M=0";
  // The primary shape (2112 x 7168): the warp-MMA kernel's fused form at M = 1, two launches above.
  DeviceBuffer b2;
  CUDA_ASSERT(b2.alloc(size_t(2112 * k)));
  for (int64_t m = 1; m <= 16; ++m) {
    size_t bytes = 12345;
    ASSERT_EQ(blockfp8_gemm_bf16a_workspace_size(m, 2112, k, x.get(), k, BLOCKFP8_DTYPE_BF16, b2.get(), k, &bytes),
              BLOCKFP8_SUCCESS);
    EXPECT_EQ(bytes == 0, m == 1) << "2112 x 7168, M=" << m;
  }
}

// ---- layouts and dtypes ---------------------------------------------------------------------------

TEST_F(FusedTest, LayoutsAndInputDtypes) {
  SCOPED_TRACE(seed_note());
  struct L {
    const char* name;
    int64_t m, n, k, ldx_pad, x_offset, ldc_pad, ldb_pad;
    blockfp8_dtype_t t;
    bool col_scales;
  };
  const L cases[] = {
      {"ldx = K + 8 (padded rows, still one-launch alignment)", 5, 2112, 7168, 8, 0, 0, 0, BLOCKFP8_DTYPE_BF16, false},
      {"ldx = K + 64, ldc = N + 5", 17, 576, 7168, 64, 0, 5, 0, BLOCKFP8_DTYPE_BF16, false},
      {"X 16 bytes into its allocation", 8, 2112, 7168, 0, 16, 0, 0, BLOCKFP8_DTYPE_BF16, false},
      {"X 2 bytes into its allocation (two launches)", 8, 2112, 7168, 0, 2, 0, 0, BLOCKFP8_DTYPE_BF16, false},
      {"X 2 bytes in, ldx = K + 3, M = 31", 31, 4097, 512, 3, 2, 3, 0, BLOCKFP8_DTYPE_BF16, false},
      {"ldx = K + 3 (odd, two launches)", 3, 2112, 7168, 3, 0, 0, 0, BLOCKFP8_DTYPE_BF16, false},
      {"X 2 bytes in, M = 64", 64, 576, 1024, 0, 2, 0, 0, BLOCKFP8_DTYPE_BF16, false},
      {"fp16 X (two launches)", 4, 2112, 7168, 0, 0, 0, 0, BLOCKFP8_DTYPE_FP16, false},
      {"fp16 X, M = 32, padded", 32, 576, 1536, 8, 0, 2, 0, BLOCKFP8_DTYPE_FP16, false},
      {"fp16 X, M = 70, 2 bytes in", 70, 65, 512, 1, 2, 0, 0, BLOCKFP8_DTYPE_FP16, false},
      {"fp32 X (two launches)", 9, 2112, 7168, 0, 0, 0, 0, BLOCKFP8_DTYPE_FP32, false},
      {"fp32 X, M = 100, padded", 100, 1000, 1024, 4, 4, 1, 0, BLOCKFP8_DTYPE_FP32, false},
      {"column-major b_scale", 6, 2112, 7168, 0, 0, 0, 0, BLOCKFP8_DTYPE_BF16, true},
      {"B rows ldb = K + 16", 12, 576, 7168, 0, 0, 0, 16, BLOCKFP8_DTYPE_BF16, false},
      {"B rows ldb = K + 8 (B not TMA-friendly: SIMT)", 12, 300, 1024, 0, 0, 0, 8, BLOCKFP8_DTYPE_BF16, false},
  };
  Scratch s;
  Tally t;
  uint64_t salt = 200;
  for (const L& l : cases) {
    SCOPED_TRACE(l.name);
    Weights w;
    ASSERT_NO_FATAL_FAILURE(make_weights(w, l.n, l.k, case_seed(++salt), stream_, l.ldb_pad, l.col_scales));
    XTensor x;
    ASSERT_NO_FATAL_FAILURE(make_x(x, l.m, l.k, l.k + l.ldx_pad, l.t, l.x_offset, case_seed(++salt)));
    check_formats_and_dtypes(x, w, l.m, l.ldc_pad, s, stream_, t);  // (fp16 C would overflow on this data)
    if (HasFailure()) return;
  }
}

// Wide exponents and zero rows, spelled out: one row all zeros, one row with one huge element per
// group and the rest tiny (most quantise to zero), one row of bf16 subnormals, one alternating
// 2^+100 / 2^-100 elements; through both paths.
TEST_F(FusedTest, ExtremeRows) {
  SCOPED_TRACE(seed_note());
  // 576 x 1024 takes one launch in the warp-MMA kernel at M = 4 and in the TMA decode kernel at M = 12
  // (FusedPlan.SanitizerShapesTakeOneLaunch), two at M = 40: each path quantises the extreme rows.
  const int64_t n = 576, k = 1024;
  Weights w;
  ASSERT_NO_FATAL_FAILURE(make_weights(w, n, k, case_seed(300), stream_));
  Scratch s;
  Tally t;
  for (int64_t m : {4, 12, 40}) {
    XTensor x;
    ASSERT_NO_FATAL_FAILURE(make_x(x, m, k, k, BLOCKFP8_DTYPE_BF16, 0, case_seed(301 + uint64_t(m))));
    for (int64_t kk = 0; kk < k; ++kk) {
      store_output(x.host.data(), 0 * k + kk, BLOCKFP8_DTYPE_BF16, 0.0f);
      store_output(x.host.data(), 1 * k + kk, BLOCKFP8_DTYPE_BF16,
                   kk % 128 == 5 ? 3.0e30f : 1.0e-20f * float(1 + kk % 7));
      uint16_t sub = uint16_t(1 + (kk * 37) % 0x7f);  // bf16 subnormal bit patterns
      if (kk & 1) sub |= 0x8000;
      std::memcpy(x.host.data() + (2 * k + kk) * 2, &sub, 2);
      store_output(x.host.data(), 3 * k + kk, BLOCKFP8_DTYPE_BF16,
                   (kk & 1) ? std::ldexp(1.0f, 100) : -std::ldexp(1.0f, -100));
    }
    CUDA_ASSERT(cudaMemcpy(x.d.get(), x.host.data(), x.host.size(), cudaMemcpyHostToDevice));
    check_formats_and_dtypes(x, w, m, 0, s, stream_, t);
    if (HasFailure()) return;
  }
  EXPECT_GT(t.one_launch, 0);
  EXPECT_GT(t.two_launch, 0);
}

// ---- determinism and graphs -----------------------------------------------------------------------

// Two calls, same arguments: the same bits (one-launch and two-launch paths, split-K reductions).
TEST_F(FusedTest, Deterministic) {
  SCOPED_TRACE(seed_note());
  struct D {
    int64_t m, n, k;
  };
  Scratch s;
  Tally t;
  uint64_t salt = 400;
  for (D d : {D{1, 2112, 7168}, D{16, 7168, 16384}, D{32, 4097, 7168}, D{64, 2112, 7168}, D{200, 576, 7168}}) {
    Weights w;
    ASSERT_NO_FATAL_FAILURE(make_weights(w, d.n, d.k, case_seed(++salt), stream_));
    XTensor x;
    ASSERT_NO_FATAL_FAILURE(make_x(x, d.m, d.k, d.k, BLOCKFP8_DTYPE_BF16, 0, case_seed(++salt)));
    Call c;
    c.m = d.m, c.c_dtype = BLOCKFP8_DTYPE_BF16, c.fmt = BLOCKFP8_SCALE_UE8M0;
    std::vector<uint8_t> first, second;
    check_call(x, w, c, s, stream_, t, &first);
    check_call(x, w, c, s, stream_, t, &second);
    EXPECT_TRUE(first == second) << "two calls differ: " << c.str(x, w);
    if (HasFailure()) return;
  }
}

// blockfp8_gemm_bf16a captured in a CUDA graph (poison C, then the call), captured before any eager
// call of its shape in this test, replayed twice; C is zeroed outside the graph before each replay.
// Each replay must give the eager quantize + gemm result bit for bit.
TEST_F(FusedTest, CudaGraphReplay) {
  SCOPED_TRACE(seed_note());
  struct G {
    int64_t m, n, k;
    blockfp8_dtype_t t;
  };
  uint64_t salt = 500;
  for (G g : {G{3, 1536, 3072, BLOCKFP8_DTYPE_BF16}, G{24, 2112, 7168, BLOCKFP8_DTYPE_BF16},
              G{48, 2112, 7168, BLOCKFP8_DTYPE_BF16}, G{5, 2112, 7168, BLOCKFP8_DTYPE_FP16}}) {
    Weights w;
    ASSERT_NO_FATAL_FAILURE(make_weights(w, g.n, g.k, case_seed(++salt), stream_));
    XTensor x;
    ASSERT_NO_FATAL_FAILURE(make_x(x, g.m, g.k, g.k, g.t, 0, case_seed(++salt)));
    Call c;
    c.m = g.m, c.c_dtype = BLOCKFP8_DTYPE_BF16, c.fmt = BLOCKFP8_SCALE_FP32;
    SCOPED_TRACE(c.str(x, w));
    size_t ws = 0;
    ASSERT_EQ(blockfp8_gemm_bf16a_workspace_size(c.m, w.n, w.k, x.ptr(), x.ldx, x.t, w.b.get(), w.ldb, &ws),
              BLOCKFP8_SUCCESS);
    DeviceBuffer workspace, out;
    if (ws) CUDA_ASSERT(workspace.alloc(ws));
    const size_t bytes = size_t(c_bytes(c, w));
    CUDA_ASSERT(out.alloc(bytes));

    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    CUDA_ASSERT(cudaStreamSynchronize(stream_));
    CUDA_ASSERT(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    const cudaError_t pe = cudaMemsetAsync(out.get(), kFusedPoison, bytes, stream_);
    const blockfp8_status_t st =
        blockfp8_gemm_bf16a(c.m, w.n, w.k, x.ptr(), x.ldx, x.t, w.b.get(), w.ldb, w.bs.get<float>(), w.sb_n, w.sb_k,
                            out.get(), w.n, c.c_dtype, c.fmt, ws ? workspace.get() : nullptr, ws, stream_);
    const cudaError_t ce = cudaStreamEndCapture(stream_, &graph);
    CUDA_ASSERT(pe);
    ASSERT_EQ(st, BLOCKFP8_SUCCESS) << "captured call: " << blockfp8_status_string(st);
    CUDA_ASSERT(ce);
    CUDA_ASSERT(cudaGraphInstantiate(&exec, graph, 0));

    Scratch s;
    std::vector<uint8_t> want, got(bytes);
    ASSERT_NO_FATAL_FAILURE(run_reference(x, w, c, s, stream_, want));
    for (int replay = 0; replay < 2; ++replay) {
      CUDA_ASSERT(cudaMemsetAsync(out.get(), 0, bytes, stream_));  // the graph must poison and write again
      CUDA_ASSERT(cudaGraphLaunch(exec, stream_));
      CUDA_ASSERT(cudaStreamSynchronize(stream_));
      CUDA_ASSERT(cudaMemcpy(got.data(), out.get(), bytes, cudaMemcpyDeviceToHost));
      expect_bitwise(got, want, w, c, replay ? "graph replay 2" : "graph replay 1");
    }
    EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
    EXPECT_EQ(cudaGraphDestroy(graph), cudaSuccess);
    if (HasFailure()) return;
  }
}

// Calls back to back on one stream sharing one workspace, each with its own X, eagerly and as one
// captured graph: the quantiser of call j + 1 (launched with PDL up to 256 tokens, bf16a_quantizer_pdl;
// unbounded at M = 16, spread to one CTA an SM at 48 and two at 200) rewrites the workspace that call j's GEMM
// reads, so it must wait for that GEMM to finish. Every call's output must be bitwise its own reference.
TEST_F(FusedTest, BackToBackCallsShareTheWorkspace) {
  SCOPED_TRACE(seed_note());
  constexpr int kCalls = 4;
  uint64_t salt = 700;
  for (int64_t m : {16, 48, 200}) {
    Weights w;
    ASSERT_NO_FATAL_FAILURE(make_weights(w, 2112, 7168, case_seed(++salt), stream_));
    std::vector<XTensor> xs(kCalls);
    for (XTensor& x : xs) ASSERT_NO_FATAL_FAILURE(make_x(x, m, w.k, w.k, BLOCKFP8_DTYPE_BF16, 0, case_seed(++salt)));
    Call c;
    c.m = m, c.c_dtype = BLOCKFP8_DTYPE_BF16, c.fmt = BLOCKFP8_SCALE_FP32;
    SCOPED_TRACE(c.str(xs[0], w));
    size_t ws = 0;
    ASSERT_EQ(blockfp8_gemm_bf16a_workspace_size(m, w.n, w.k, xs[0].ptr(), xs[0].ldx, xs[0].t, w.b.get(), w.ldb, &ws),
              BLOCKFP8_SUCCESS);
    ASSERT_GT(ws, 0u) << "the two-launch path is what this test is about";
    DeviceBuffer workspace;
    CUDA_ASSERT(workspace.alloc(ws));
    const size_t bytes = size_t(c_bytes(c, w));
    std::vector<DeviceBuffer> outs(kCalls);
    for (DeviceBuffer& o : outs) CUDA_ASSERT(o.alloc(bytes));
    Scratch s;
    std::vector<std::vector<uint8_t>> want(kCalls);
    for (int j = 0; j < kCalls; ++j) ASSERT_NO_FATAL_FAILURE(run_reference(xs[j], w, c, s, stream_, want[j]));
    auto enqueue = [&]() {
      for (int j = 0; j < kCalls; ++j) {
        const blockfp8_status_t st = blockfp8_gemm_bf16a(m, w.n, w.k, xs[j].ptr(), xs[j].ldx, xs[j].t, w.b.get(), w.ldb,
                                                         w.bs.get<float>(), w.sb_n, w.sb_k, outs[j].get(), w.n,
                                                         c.c_dtype, c.fmt, workspace.get(), ws, stream_);
        if (st != BLOCKFP8_SUCCESS) return st;
      }
      return BLOCKFP8_SUCCESS;
    };
    auto check = [&](const char* how) {
      std::vector<uint8_t> got(bytes);
      for (int j = 0; j < kCalls; ++j) {
        CUDA_ASSERT(cudaMemcpy(got.data(), outs[j].get(), bytes, cudaMemcpyDeviceToHost));
        expect_bitwise(got, want[j], w, c, (std::string(how) + ", call " + std::to_string(j)).c_str());
      }
    };
    for (DeviceBuffer& o : outs) CUDA_ASSERT(cudaMemsetAsync(o.get(), kFusedPoison, bytes, stream_));
    ASSERT_EQ(enqueue(), BLOCKFP8_SUCCESS);
    CUDA_ASSERT(cudaStreamSynchronize(stream_));
    ASSERT_NO_FATAL_FAILURE(check("eager"));

    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    CUDA_ASSERT(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    const blockfp8_status_t st = enqueue();
    const cudaError_t ce = cudaStreamEndCapture(stream_, &graph);
    ASSERT_EQ(st, BLOCKFP8_SUCCESS) << "captured calls: " << blockfp8_status_string(st);
    CUDA_ASSERT(ce);
    CUDA_ASSERT(cudaGraphInstantiate(&exec, graph, 0));
    for (int replay = 0; replay < 3; ++replay) {
      for (DeviceBuffer& o : outs) CUDA_ASSERT(cudaMemsetAsync(o.get(), kFusedPoison, bytes, stream_));
      CUDA_ASSERT(cudaGraphLaunch(exec, stream_));
      CUDA_ASSERT(cudaStreamSynchronize(stream_));
      ASSERT_NO_FATAL_FAILURE(check("graph"));
    }
    EXPECT_EQ(cudaGraphExecDestroy(exec), cudaSuccess);
    EXPECT_EQ(cudaGraphDestroy(graph), cudaSuccess);
    if (HasFailure()) return;
  }
}

// ---- against the CPU references -------------------------------------------------------------------

// A sanity check that does not trust the library's quantiser: the CPU quantiser reference
// (tests/common/quantize_reference.cpp) and the CPU GEMM reference (double), against the fused output,
// within the GEMM suite's tolerance (max|C - ref| / max|ref|).
TEST_F(FusedTest, AgainstCpuReference) {
  SCOPED_TRACE(seed_note());
  struct P {
    int64_t m, n, k;
    blockfp8_dtype_t t;
    blockfp8_scale_format_t fmt;
    blockfp8_dtype_t ct;
  };
  const P points[] = {
      {5, 2112, 7168, BLOCKFP8_DTYPE_BF16, BLOCKFP8_SCALE_FP32, BLOCKFP8_DTYPE_BF16},   // warp-MMA GEMM
      {32, 576, 7168, BLOCKFP8_DTYPE_BF16, BLOCKFP8_SCALE_UE8M0, BLOCKFP8_DTYPE_FP32},  // TMA GEMM, tile 32
      {64, 1000, 1024, BLOCKFP8_DTYPE_BF16, BLOCKFP8_SCALE_UE8M0, BLOCKFP8_DTYPE_BF16}, // two launches
      {7, 300, 2048, BLOCKFP8_DTYPE_FP16, BLOCKFP8_SCALE_FP32, BLOCKFP8_DTYPE_FP32},    // fp16 X
  };
  Scratch s;
  Tally t;
  uint64_t salt = 600;
  for (const P& p : points) {
    Weights w;
    ASSERT_NO_FATAL_FAILURE(make_weights(w, p.n, p.k, case_seed(++salt), stream_));
    ASSERT_NO_FATAL_FAILURE(host_copy(w));
    XTensor x;
    ASSERT_NO_FATAL_FAILURE(make_x(x, p.m, p.k, p.k, p.t, 0, case_seed(++salt)));
    Call c;
    c.m = p.m, c.c_dtype = p.ct, c.fmt = p.fmt;
    SCOPED_TRACE(c.str(x, w));
    std::vector<uint8_t> got;
    check_call(x, w, c, s, stream_, t, &got);
    if (HasFailure()) return;

    std::vector<uint8_t> q;
    std::vector<float> scales;
    reference_quantize_1x128(p.m, p.k, x.host.data(), x.ldx, p.t, p.fmt == BLOCKFP8_SCALE_UE8M0, q, scales);
    const int64_t kb = p.k / 128;
    const GemmOperands ops{p.m, p.n, p.k, q.data(), p.k, scales.data(), kb, 1,
                           w.hb.data(), w.ldb, w.hbs.data(), w.sb_n, w.sb_k};
    std::vector<double> ref;
    reference_gemm(ops, ref);
    const Comparison cmp = compare_output(got.data(), p.n, p.ct, ref.data(), p.m, p.n);
    EXPECT_EQ(cmp.unwritten + cmp.non_finite, 0) << cmp.str();
    EXPECT_LE(cmp.rel_err(), p.ct == BLOCKFP8_DTYPE_BF16 ? 1e-2 : 5e-3) << cmp.str();
    EXPECT_GT(cmp.max_abs_ref, 0) << "degenerate data";
    // And not only the largest rows: every non-zero row within tolerance of its own max.
    for (int64_t r = 0; r < p.m; ++r) {
      const Comparison row = compare_output(got.data() + r * p.n * dtype_bytes(p.ct), p.n, p.ct,
                                            ref.data() + r * p.n, 1, p.n);
      if (row.max_abs_ref > 0) {
        EXPECT_LE(row.rel_err(), 2e-2) << "row " << r << ": " << row.str();
      }
      double amax = 0;
      for (int64_t kk = 0; kk < p.k; ++kk)
        amax = std::max(amax, std::fabs(load_output(x.host.data(), r * x.ldx + kk, p.t)));
      if (amax == 0) {
        EXPECT_EQ(row.max_abs_ref, 0) << "row " << r << " of X is zero";
      }
    }
  }
}

// ---- for compute-sanitizer (tools/device_suite.sh) ------------------------------------------------

// Small and fast: one call down each path (one launch at M = 4 (the warp-MMA kernel split over a
// cluster) and M = 12 (the TMA decode kernel) on 576 x 1024, X 16 bytes in for the latter, and the
// unsplit warp-MMA kernel's at M = 3 on 2112 x 512, which the unit test
// FusedPlan.SanitizerShapesTakeOneLaunch pins on an H200's description; two launches for M = 40, an
// unaligned X, fp16 X), each checked bitwise.
TEST_F(FusedTest, SanitizerSmoke) {
  SCOPED_TRACE(seed_note());
  struct S {
    int64_t m, n, k, x_offset, ldx_pad;
    blockfp8_dtype_t t;
  };
  Scratch s;
  Tally t;
  uint64_t salt = 700;
  for (S c0 : {S{4, 576, 1024, 0, 0, BLOCKFP8_DTYPE_BF16}, S{12, 576, 1024, 16, 8, BLOCKFP8_DTYPE_BF16},
               S{40, 300, 1024, 0, 0, BLOCKFP8_DTYPE_BF16}, S{3, 300, 1024, 2, 3, BLOCKFP8_DTYPE_BF16},
               S{5, 200, 512, 0, 0, BLOCKFP8_DTYPE_FP16}, S{3, 2112, 512, 0, 0, BLOCKFP8_DTYPE_BF16}}) {
    Weights w;
    ASSERT_NO_FATAL_FAILURE(make_weights(w, c0.n, c0.k, case_seed(++salt), stream_));
    XTensor x;
    ASSERT_NO_FATAL_FAILURE(make_x(x, c0.m, c0.k, c0.k + c0.ldx_pad, c0.t, c0.x_offset, case_seed(++salt)));
    Call c;
    c.m = c0.m, c.c_dtype = BLOCKFP8_DTYPE_BF16, c.fmt = BLOCKFP8_SCALE_UE8M0;
    check_call(x, w, c, s, stream_, t, nullptr, /*generous=*/false);  // racecheck is slow: one fused call each
    if (HasFailure()) return;
  }
  EXPECT_GT(t.one_launch, 0);
  EXPECT_GT(t.two_launch, 0);
}

}  // namespace
}  // namespace bf8test
