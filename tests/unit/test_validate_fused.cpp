// validate_fused (blockfp8_gemm_bf16a's argument check): every rule, one violating input each, plus
// the layouts that must pass; and, on a described H200 (no GPU), that the decode shapes the one-launch
// path is meant for get a fused ring from the dispatcher's choice (plan_fused's rule in api.cpp).
// Pointers are fake, well-separated addresses: nothing is dereferenced.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "dispatch.h"
#include "problem.h"
#include "validate.h"

namespace {

using blockfp8::detail::FusedA;
using blockfp8::detail::Problem;
using blockfp8::detail::validate_fused;

constexpr uint64_t kX = 1ull << 40, kB = 2ull << 40, kBScale = 4ull << 40, kC = 5ull << 40, kW = 6ull << 40;
constexpr int64_t kBig = int64_t{1} << 31;

const void* at(uint64_t address) { return reinterpret_cast<const void*>(uintptr_t(address)); }
const float* fat(uint64_t address) { return static_cast<const float*>(at(address)); }
void* cat(uint64_t address) { return const_cast<void*>(at(address)); }

// One call of blockfp8_gemm_bf16a: the GEMM side (A and a_scale left NULL: the fused entry point
// has none) and the activation side, each editable.
struct Call {
  Problem p;
  FusedA x;
};

// A valid call: dense X (bf16), B, C (bf16), row-major b_scale, a 1 MiB workspace of its own.
Call make(int64_t m = 4, int64_t n = 256, int64_t k = 512, blockfp8_dtype_t c_dtype = BLOCKFP8_DTYPE_BF16,
          blockfp8_dtype_t x_dtype = BLOCKFP8_DTYPE_BF16) {
  Call c;
  c.p.m = m, c.p.n = n, c.p.k = k;
  c.p.b = at(kB), c.p.ldb = k;
  c.p.b_scale = fat(kBScale), c.p.b_scale_stride_n = k / 128, c.p.b_scale_stride_k = 1;
  c.p.c = cat(kC), c.p.ldc = n, c.p.c_dtype = c_dtype;
  c.x.x = at(kX), c.x.ldx = k, c.x.x_dtype = x_dtype, c.x.fmt = BLOCKFP8_SCALE_FP32;
  c.x.workspace = cat(kW), c.x.workspace_bytes = size_t(1) << 20;
  return c;
}

blockfp8_status_t check(const Call& c) { return validate_fused(c.p, c.x); }

// (blockfp8_status_string lives in api.cpp, outside the host library: statuses print as numbers.)
#define EXPECT_F(call, status) EXPECT_EQ(check(call), status)

constexpr blockfp8_dtype_t kDtypes[] = {BLOCKFP8_DTYPE_BF16, BLOCKFP8_DTYPE_FP16, BLOCKFP8_DTYPE_FP32};

// ---- valid calls ---------------------------------------------------------------------------------

TEST(ValidateFused, EveryDtypeAndFormat) {
  for (auto ct : kDtypes)
    for (auto xt : kDtypes)
      for (auto fmt : {BLOCKFP8_SCALE_FP32, BLOCKFP8_SCALE_UE8M0}) {
        Call c = make(4, 256, 512, ct, xt);
        c.x.fmt = fmt;
        EXPECT_F(c, BLOCKFP8_SUCCESS) << ct << " " << xt << " " << fmt;
      }
}

TEST(ValidateFused, WorkspaceIsOptional) {
  Call c = make();
  c.x.workspace = nullptr, c.x.workspace_bytes = 0;  // the one-launch path needs none
  EXPECT_F(c, BLOCKFP8_SUCCESS);
  c.x.workspace_bytes = 4096;  // NULL with a size: describes no memory, overlaps nothing
  EXPECT_F(c, BLOCKFP8_SUCCESS);
  c = make(), c.x.workspace = cat(kC), c.x.workspace_bytes = 0;  // an empty workspace overlaps nothing
  EXPECT_F(c, BLOCKFP8_SUCCESS);
}

TEST(ValidateFused, AAndAScaleAreIgnored) {
  Call c = make();
  c.p.a = nullptr, c.p.a_scale = nullptr, c.p.lda = 0, c.p.a_scale_stride_m = -7;
  EXPECT_F(c, BLOCKFP8_SUCCESS);
  c.p.a = at(kC), c.p.a_scale = fat(kC + 64);  // would alias C if they were read
  EXPECT_F(c, BLOCKFP8_SUCCESS);
}

TEST(ValidateFused, PaddedAndOddLayouts) {
  Call c = make(7, 300, 512);
  c.x.ldx = 512 + 3, c.p.ldb = 512 + 1, c.p.ldc = 300 + 5;
  c.p.b_scale_stride_n = 1, c.p.b_scale_stride_k = 3 + 2;  // column-major b_scale, padded
  EXPECT_F(c, BLOCKFP8_SUCCESS);
  c.p.b_scale_stride_n = 0, c.p.b_scale_stride_k = 0;  // broadcast: an input may
  EXPECT_F(c, BLOCKFP8_SUCCESS);
  EXPECT_F(make(1, 1, 128), BLOCKFP8_SUCCESS);
  EXPECT_F(make(32, 4097, 16384), BLOCKFP8_SUCCESS);
  EXPECT_F(make(200, 65, 7168), BLOCKFP8_SUCCESS);
}

TEST(ValidateFused, ElementAlignedXAndCAreEnough) {
  // The one-launch path wants 16-byte X and ldx % 8 == 0; anything element-aligned is served by the
  // two-launch path, not refused.
  Call c = make();
  c.x.x = at(kX + 2), c.x.ldx = 515;
  c.p.c = cat(kC + 2);
  EXPECT_F(c, BLOCKFP8_SUCCESS);
  c.x.x_dtype = BLOCKFP8_DTYPE_FP16;
  EXPECT_F(c, BLOCKFP8_SUCCESS);
  c.x.x = at(kX + 4), c.x.x_dtype = BLOCKFP8_DTYPE_FP32;
  c.p.c = cat(kC + 4), c.p.c_dtype = BLOCKFP8_DTYPE_FP32;
  EXPECT_F(c, BLOCKFP8_SUCCESS);
  c = make(), c.p.b = at(kB + 3), c.p.ldb = 517;  // B: any alignment (the SIMT kernel serves it)
  EXPECT_F(c, BLOCKFP8_SUCCESS);
  c = make(), c.p.b_scale = fat(kBScale + 4);
  EXPECT_F(c, BLOCKFP8_SUCCESS);
}

TEST(ValidateFused, InputsMayOverlapEachOther) {
  Call c = make();
  c.p.b = c.x.x;  // X and B the same bytes: both are only read
  EXPECT_F(c, BLOCKFP8_SUCCESS);
  c = make(), c.p.b_scale = static_cast<const float*>(c.x.x);
  EXPECT_F(c, BLOCKFP8_SUCCESS);
}

TEST(ValidateFused, AdjacentRangesDoNotOverlap) {
  // M = 4, K = 512 bf16 X spans 4096 bytes; C (M = 4, N = 256 bf16) 2048 bytes.
  Call c = make();
  c.p.c = cat(kX + 4096);  // C starts at X's end
  EXPECT_F(c, BLOCKFP8_SUCCESS);
  c = make(), c.x.workspace = cat(kC + 2048), c.x.workspace_bytes = 100;  // right after C
  EXPECT_F(c, BLOCKFP8_SUCCESS);
  c = make(), c.x.workspace = cat(kX - 4096), c.x.workspace_bytes = 4096;  // ends where X begins
  EXPECT_F(c, BLOCKFP8_SUCCESS);
}

// ---- M == 0 --------------------------------------------------------------------------------------

TEST(ValidateFused, ZeroMAcceptsNullXAndC) {
  Call c = make(0);
  c.x.x = nullptr, c.p.c = nullptr;
  EXPECT_F(c, BLOCKFP8_SUCCESS);
  c.x.ldx = 0, c.p.ldc = 0;  // nothing of X and C is inspected
  EXPECT_F(c, BLOCKFP8_SUCCESS);
  c = make(0), c.x.x = at(kX + 1), c.p.c = cat(kC + 1);  // nor their alignment
  EXPECT_F(c, BLOCKFP8_SUCCESS);
  c = make(0), c.x.workspace = cat(kC);  // nor the workspace's overlap
  EXPECT_F(c, BLOCKFP8_SUCCESS);
}

TEST(ValidateFused, ZeroMStillChecksBDtypesAndFormat) {
  Call c = make(0);
  c.p.b = nullptr;
  EXPECT_F(c, BLOCKFP8_ERROR_NULL_POINTER);
  c = make(0), c.p.b_scale = nullptr;
  EXPECT_F(c, BLOCKFP8_ERROR_NULL_POINTER);
  c = make(0), c.p.ldb = 100;
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_STRIDE);
  c = make(0), c.p.b_scale = fat(kBScale + 2);
  EXPECT_F(c, BLOCKFP8_ERROR_MISALIGNED);
  c = make(0), c.x.x_dtype = static_cast<blockfp8_dtype_t>(3);
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_DTYPE);
  c = make(0), c.p.c_dtype = static_cast<blockfp8_dtype_t>(3);
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_DTYPE);
  c = make(0), c.x.fmt = static_cast<blockfp8_scale_format_t>(-1);
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_VALUE);
}

// ---- one rule each -------------------------------------------------------------------------------

TEST(ValidateFused, Shape) {
  Call c = make();
  c.p.m = -1;
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_SHAPE);
  c = make(), c.p.n = 0;
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_SHAPE);
  c = make(), c.p.n = -5;
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_SHAPE);
  c = make(), c.p.k = 0;
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_SHAPE);
  c = make(), c.p.k = -128;
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_SHAPE);
  c = make(), c.p.m = kBig;
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_SHAPE);
  c = make(), c.p.n = kBig, c.p.ldc = kBig;
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_SHAPE);
  c = make(), c.p.k = kBig, c.x.ldx = c.p.ldb = kBig;
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_SHAPE);
  c = make(), c.p.m = std::numeric_limits<int64_t>::max();
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_SHAPE);
}

TEST(ValidateFused, ByteExtentsOverflowing) {
  Call c = make();
  c.x.ldx = int64_t{1} << 62;  // X's bytes (x 2) overflow int64
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_SHAPE);
  c = make(), c.p.ldc = int64_t{1} << 61, c.p.c_dtype = BLOCKFP8_DTYPE_FP32;
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_SHAPE);
  c = make(), c.p.ldb = int64_t{1} << 62, c.p.n = 3;
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_SHAPE);
  c = make(), c.p.b_scale_stride_k = int64_t{1} << 61, c.p.b_scale_stride_n = 1;
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_SHAPE);
  // A workspace whose range wraps around the address space.
  c = make(), c.x.workspace = cat(std::numeric_limits<uint64_t>::max() - 15), c.x.workspace_bytes = 64;
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_SHAPE);
}

TEST(ValidateFused, KNotMultipleOf128) {
  for (int64_t k : {64, 129, 500, 7000}) {
    Call c = make(4, 256, k);
    EXPECT_F(c, BLOCKFP8_ERROR_K_NOT_MULTIPLE_OF_128) << k;
  }
}

TEST(ValidateFused, Dtypes) {
  for (int bad : {3, -1, 0x7fffffff}) {
    Call c = make();
    c.p.c_dtype = static_cast<blockfp8_dtype_t>(bad);
    EXPECT_F(c, BLOCKFP8_ERROR_INVALID_DTYPE) << "c dtype " << bad;
    c = make(), c.x.x_dtype = static_cast<blockfp8_dtype_t>(bad);
    EXPECT_F(c, BLOCKFP8_ERROR_INVALID_DTYPE) << "x dtype " << bad;
  }
}

TEST(ValidateFused, ScaleFormat) {
  for (int bad : {2, -1, 100}) {
    Call c = make();
    c.x.fmt = static_cast<blockfp8_scale_format_t>(bad);
    EXPECT_F(c, BLOCKFP8_ERROR_INVALID_VALUE) << bad;
  }
}

TEST(ValidateFused, NullPointers) {
  Call c = make();
  c.p.b = nullptr;
  EXPECT_F(c, BLOCKFP8_ERROR_NULL_POINTER);
  c = make(), c.p.b_scale = nullptr;
  EXPECT_F(c, BLOCKFP8_ERROR_NULL_POINTER);
  c = make(), c.x.x = nullptr;
  EXPECT_F(c, BLOCKFP8_ERROR_NULL_POINTER);
  c = make(), c.p.c = nullptr;
  EXPECT_F(c, BLOCKFP8_ERROR_NULL_POINTER);
}

TEST(ValidateFused, Strides) {
  Call c = make();
  c.x.ldx = 511;
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_STRIDE);
  c = make(), c.x.ldx = -1;
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_STRIDE);
  c = make(1, 256, 512), c.x.ldx = 0;  // literal ldx >= K, even for one row (as lda for the GEMM)
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_STRIDE);
  c = make(), c.p.ldb = 511;
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_STRIDE);
  c = make(), c.p.ldc = 255;
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_STRIDE);
  c = make(), c.p.b_scale_stride_k = -1;
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_STRIDE);
  c = make(), c.p.b_scale_stride_n = -4;
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_STRIDE);
  c = make(300, 300, 512), c.p.b_scale_stride_n = 1, c.p.b_scale_stride_k = 1;  // two elements share a word
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_STRIDE);
  c = make(300, 300, 512), c.p.b_scale_stride_n = 3;  // rows of 4 k-blocks overlap
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_STRIDE);
}

TEST(ValidateFused, Misaligned) {
  Call c = make();
  c.p.c = cat(kC + 1);
  EXPECT_F(c, BLOCKFP8_ERROR_MISALIGNED);
  c = make(4, 256, 512, BLOCKFP8_DTYPE_FP16), c.p.c = cat(kC + 1);
  EXPECT_F(c, BLOCKFP8_ERROR_MISALIGNED);
  c = make(4, 256, 512, BLOCKFP8_DTYPE_FP32), c.p.c = cat(kC + 2);
  EXPECT_F(c, BLOCKFP8_ERROR_MISALIGNED);
  // X to its element size.
  c = make(), c.x.x = at(kX + 1);
  EXPECT_F(c, BLOCKFP8_ERROR_MISALIGNED);
  c = make(4, 256, 512, BLOCKFP8_DTYPE_BF16, BLOCKFP8_DTYPE_FP16), c.x.x = at(kX + 3);
  EXPECT_F(c, BLOCKFP8_ERROR_MISALIGNED);
  c = make(4, 256, 512, BLOCKFP8_DTYPE_BF16, BLOCKFP8_DTYPE_FP32), c.x.x = at(kX + 2);
  EXPECT_F(c, BLOCKFP8_ERROR_MISALIGNED);
  c = make(), c.p.b_scale = fat(kBScale + 2);
  EXPECT_F(c, BLOCKFP8_ERROR_MISALIGNED);
  // The workspace to 16 bytes (X_q, read with TMA on the two-launch path, starts there).
  c = make(), c.x.workspace = cat(kW + 8);
  EXPECT_F(c, BLOCKFP8_ERROR_MISALIGNED);
}

TEST(ValidateFused, COverlappingAnInput) {
  Call c = make();
  c.p.c = cat(kX);  // C == X
  EXPECT_F(c, BLOCKFP8_ERROR_ALIASING);
  c = make(), c.p.c = cat(kX + 4096 - 2);  // C's first element is X's last
  EXPECT_F(c, BLOCKFP8_ERROR_ALIASING);
  c = make(), c.p.c = cat(kX - 2048 + 2);  // C's last element is X's first
  EXPECT_F(c, BLOCKFP8_ERROR_ALIASING);
  // X's row padding is part of its range: ldx = K + 64 elements, C inside the padding of row 0.
  c = make(), c.x.ldx = 512 + 64, c.p.c = cat(kX + 512 * 2);
  EXPECT_F(c, BLOCKFP8_ERROR_ALIASING);
  c = make(), c.p.c = cat(kB + 256);  // inside B
  EXPECT_F(c, BLOCKFP8_ERROR_ALIASING);
  c = make(), c.p.b = at(kC);  // B == C
  EXPECT_F(c, BLOCKFP8_ERROR_ALIASING);
  c = make(), c.p.c = cat(kBScale);  // C == b_scale
  EXPECT_F(c, BLOCKFP8_ERROR_ALIASING);
  c = make(), c.p.c = cat(kBScale - 64);  // C ending inside b_scale
  EXPECT_F(c, BLOCKFP8_ERROR_ALIASING);
  // b_scale in C's row padding (ldc = N + 64: row 0's padding holds bytes 512..639).
  c = make(), c.p.ldc = 256 + 64, c.p.b_scale = fat(kC + 600);
  EXPECT_F(c, BLOCKFP8_ERROR_ALIASING);
}

TEST(ValidateFused, WorkspaceOverlappingAnything) {
  Call c = make();
  c.x.workspace = cat(kX);  // workspace == X
  EXPECT_F(c, BLOCKFP8_ERROR_ALIASING);
  c = make(), c.x.workspace = cat(kX - 112), c.x.workspace_bytes = 113;  // its last byte is X's first
  EXPECT_F(c, BLOCKFP8_ERROR_ALIASING);
  c = make(), c.x.workspace = cat(kX + 4080);  // starts in X's last 16 bytes
  EXPECT_F(c, BLOCKFP8_ERROR_ALIASING);
  c = make(), c.x.workspace = cat(kB + 1008);  // inside B
  EXPECT_F(c, BLOCKFP8_ERROR_ALIASING);
  c = make(), c.x.workspace = cat(kBScale + 16);  // inside b_scale
  EXPECT_F(c, BLOCKFP8_ERROR_ALIASING);
  c = make(), c.x.workspace = cat(kC);  // workspace == C
  EXPECT_F(c, BLOCKFP8_ERROR_ALIASING);
  c = make(), c.x.workspace = cat(kC - 16), c.x.workspace_bytes = 17;  // one byte into C
  EXPECT_F(c, BLOCKFP8_ERROR_ALIASING);
  c = make(), c.x.workspace = cat(kW), c.p.c = cat(kW + 1000);  // C inside a large workspace
  EXPECT_F(c, BLOCKFP8_ERROR_ALIASING);
}

TEST(ValidateFused, FirstViolatedRuleWins) {
  // Order: shape, dtype, format, pointers, strides, extents, alignment, aliasing.
  Call c = make();
  c.p.k = 500, c.x.x_dtype = static_cast<blockfp8_dtype_t>(9);
  EXPECT_F(c, BLOCKFP8_ERROR_K_NOT_MULTIPLE_OF_128);
  c = make(), c.x.x_dtype = static_cast<blockfp8_dtype_t>(9), c.x.fmt = static_cast<blockfp8_scale_format_t>(9);
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_DTYPE);
  c = make(), c.x.fmt = static_cast<blockfp8_scale_format_t>(9), c.x.x = nullptr;
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_VALUE);
  c = make(), c.x.x = nullptr, c.x.ldx = 1;
  EXPECT_F(c, BLOCKFP8_ERROR_NULL_POINTER);
  c = make(), c.x.ldx = 1, c.p.c = cat(kC + 1);
  EXPECT_F(c, BLOCKFP8_ERROR_INVALID_STRIDE);
  c = make(), c.p.c = cat(kX + 1);  // misaligned and overlapping X
  EXPECT_F(c, BLOCKFP8_ERROR_MISALIGNED);
}

// ---- the one-launch path on an H200 description ------------------------------------------------

// plan_fused (api.cpp) runs the fused kernel when the configuration blockfp8_gemm would use is the
// decode kernel with two warpgroups and a token tile <= 32, the K slice is short enough
// (M x kb_slice <= kSwapabFusedMaxGroups = 40) and swapab_fused_stages finds a ring, or the warp-MMA
// kernel with a slice one pass of loads covers (M x kb_slice <= 64 at eight warps). On the primary
// decode shape (warp-MMA, unsplit: 56 k-blocks) that is M = 1; on 576 x 7168 (warp-MMA split 3: 19
// k-blocks a slice) M <= 3; never above 32 tokens. (The GPU suite checks the same through
// blockfp8_gemm_bf16a_workspace_size.) The fused kernel must give blockfp8_gemm's bits, so it is the
// fused form of whatever blockfp8_gemm runs.
TEST(FusedPlan, OneLaunchWhereTheGemmsKernelHasAFusedForm) {
  using namespace blockfp8::detail;
  const DeviceInfo d{};  // an H200's defaults
  for (int64_t n : {2112, 576})
    for (int64_t m = 1; m <= 32; ++m) {
      blockfp8_config_t cfg = choose_config(m, n, 7168, d);
      ASSERT_EQ(check_config(cfg, m, n, 7168, d), BLOCKFP8_SUCCESS) << m;
      const bool tma_decode = cfg.kernel == BLOCKFP8_KERNEL_SWAPAB_SPLITK;
      const bool short_slice = tma_decode && m * swapab_kb_slice(56, cfg.split_k) <= kSwapabFusedMaxGroups;
      EXPECT_EQ(swapab_fused_stages(cfg, m, n, 7168, d) > 0, short_slice) << "N=" << n << " M=" << m;
      const bool warpmma = cfg.kernel == BLOCKFP8_KERNEL_WARP_MMA;
      // One pass of loads: 16 half-warps x kWarpMmaFusedLoads groups.
      const bool one_pass = warpmma && m * swapab_kb_slice(56, cfg.split_k) <= 16 * kWarpMmaFusedLoads;
      EXPECT_EQ(warpmma_fused_ok(cfg, m, n, 7168, d), one_pass) << "N=" << n << " M=" << m;
      EXPECT_EQ(warpmma, m <= kWarpMmaMaxM) << "N=" << n << " M=" << m;
      EXPECT_FALSE(short_slice) << m;  // M <= 8 warp-MMA, M > 8 more than 40 groups
      if (n == 2112) EXPECT_EQ(one_pass, m == 1) << m;
      if (n == 576) EXPECT_EQ(cfg.split_k, warpmma ? 3 : cfg.split_k) << m;
      if (n == 576) EXPECT_EQ(one_pass, m <= 3) << m;
    }
  for (int64_t m : {33, 64, 200}) {
    blockfp8_config_t cfg = choose_config(m, 2112, 7168, d);
    ASSERT_EQ(check_config(cfg, m, 2112, 7168, d), BLOCKFP8_SUCCESS) << m;
    EXPECT_EQ(swapab_fused_stages(cfg, m, 2112, 7168, d), 0) << m;
  }
}

// The TMA kernel's fused form only where the GEMM's grid fits the SMs (dispatch.h: at 133 registers
// it holds one CTA an SM where the GEMM holds two): 7168 x 256 at M = 16 (112 tiles) takes it,
// 16384 x 512 and 12288 x 1536 (256 and 192 tiles, kept on the TMA kernel at M <= 8) do not.
TEST(FusedPlan, TmaFusedOnlyWhereTheGridFitsTheSms) {
  using namespace blockfp8::detail;
  const DeviceInfo d{};
  struct P {
    int64_t m, n, k;
    bool one_launch;
  };
  for (const P p : {P{16, 7168, 256, true}, P{1, 16384, 512, false}, P{8, 16384, 512, false},
                    P{1, 12288, 1536, false}, P{12, 576, 1024, true}}) {
    blockfp8_config_t cfg = choose_config(p.m, p.n, p.k, d);
    ASSERT_EQ(check_config(cfg, p.m, p.n, p.k, d), BLOCKFP8_SUCCESS);  // fills the ring's defaults
    ASSERT_EQ(cfg.kernel, BLOCKFP8_KERNEL_SWAPAB_SPLITK) << p.n << "x" << p.k << " M=" << p.m;
    const int64_t ctas = strip_ctas(p.n, cfg.weight_rows, cfg.split_k);
    EXPECT_EQ(ctas <= d.sm_count, p.one_launch) << p.n << "x" << p.k;
    EXPECT_EQ(swapab_fused_stages(cfg, p.m, p.n, p.k, d) > 0, p.one_launch) << p.n << "x" << p.k << " M=" << p.m;
  }
}

// FusedTest.SanitizerSmoke and FusedTest.ExtremeRows (tests/gpu/test_fused.cpp) rely on these small
// shapes taking the one-launch path, so that compute-sanitizer sees each fused kernel: the TMA decode
// kernel's at 576 x 1024 M = 12, the warp-MMA kernel's split over a cluster at M = 4, and unsplit at
// 2112 x 512 M = 3.
TEST(FusedPlan, SanitizerShapesTakeOneLaunch) {
  using namespace blockfp8::detail;
  const DeviceInfo d{};
  blockfp8_config_t cfg = choose_config(12, 576, 1024, d);
  ASSERT_EQ(check_config(cfg, 12, 576, 1024, d), BLOCKFP8_SUCCESS);
  EXPECT_GT(swapab_fused_stages(cfg, 12, 576, 1024, d), 0);
  cfg = choose_config(4, 576, 1024, d);
  ASSERT_EQ(check_config(cfg, 4, 576, 1024, d), BLOCKFP8_SUCCESS);
  EXPECT_TRUE(warpmma_fused_ok(cfg, 4, 576, 1024, d));
  EXPECT_GT(cfg.split_k, 1);
  cfg = choose_config(3, 2112, 512, d);
  ASSERT_EQ(check_config(cfg, 3, 2112, 512, d), BLOCKFP8_SUCCESS);
  EXPECT_TRUE(warpmma_fused_ok(cfg, 3, 2112, 512, d));
  EXPECT_EQ(cfg.split_k, 1);
}

// The warp-MMA kernel's fused form: one token tile, the instantiated configurations, a slice that fits.
TEST(FusedPlan, WarpMmaFusedRules) {
  using namespace blockfp8::detail;
  const DeviceInfo d{};
  blockfp8_config_t c{};
  c.kernel = BLOCKFP8_KERNEL_WARP_MMA, c.token_tile = 8, c.weight_rows = 16, c.split_k = 1, c.warpgroups = 2;
  c.stage_kblocks = 4;
  EXPECT_TRUE(warpmma_fused_ok(c, 1, 2112, 7168, d));   // 56 groups: one pass of 4 loads over 16 half-warps
  EXPECT_FALSE(warpmma_fused_ok(c, 2, 2112, 7168, d));  // 112
  EXPECT_TRUE(warpmma_fused_ok(c, 5, 2112, 1536, d));   // 60
  EXPECT_FALSE(warpmma_fused_ok(c, 6, 2112, 1536, d));  // 72
  EXPECT_TRUE(warpmma_fused_ok(c, 8, 2112, 1024, d));
  EXPECT_FALSE(warpmma_fused_ok(c, 9, 2112, 512, d));   // two token tiles
  c.warpgroups = 4;
  EXPECT_TRUE(warpmma_fused_ok(c, 2, 2112, 7168, d));   // 32 half-warps: 128 groups
  c.warpgroups = 2;
  c.stage_kblocks = 8;
  EXPECT_FALSE(warpmma_fused_ok(c, 1, 2112, 7168, d));  // no fused instantiation
  c.stage_kblocks = 4, c.kernel = BLOCKFP8_KERNEL_SWAPAB_SPLITK;
  EXPECT_FALSE(warpmma_fused_ok(c, 1, 2112, 7168, d));
  // Many strips of 32 (several CTAs an SM): at most one pass of 64 groups an SM over the grid.
  c.kernel = BLOCKFP8_KERNEL_WARP_MMA, c.weight_rows = 32, c.stage_kblocks = 2;
  EXPECT_TRUE(warpmma_fused_ok(c, 4, 7168, 512, d));     // 224 CTAs x 4 x 4 = 3584 <= 64 x 132
  EXPECT_TRUE(warpmma_fused_ok(c, 1, 7168, 4096, d));    // 224 x 32 = 7168
  EXPECT_TRUE(warpmma_fused_ok(c, 2, 7168, 2304, d));    // 224 x 2 x 18 = 8064 <= 8448
  EXPECT_FALSE(warpmma_fused_ok(c, 1, 24576, 1536, d));  // 768 x 12 = 9216
  EXPECT_FALSE(warpmma_fused_ok(c, 1, 36864, 7168, d));  // 1152 x 56
  EXPECT_FALSE(warpmma_fused_ok(c, 1, 6144, 7168, d));   // 192 x 56 = 10752
}

}  // namespace
