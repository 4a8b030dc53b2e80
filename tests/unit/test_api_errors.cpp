// The public C ABI's argument errors. Arguments are validated before any CUDA call, so this runs
// without a GPU (the pointers are fake device addresses that are never dereferenced).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <string>

#include "blockfp8/blockfp8.h"
#include "blockfp8/blockfp8.hpp"

namespace {

// expect_*_status(want, edit): a default-constructed A (a valid call), `edit` applied, A::run() must
// return `want`. For the entry points whose argument struct has run().
template <class A>
struct ExpectRunStatus {
  template <class Edit>
  void operator()(blockfp8_status_t want, Edit edit) const {
    A args;
    edit(args);
    EXPECT_EQ(args.run(), want) << blockfp8_status_string(args.run());
  }
};

constexpr uintptr_t kA = 1ull << 40, kB = 2ull << 40, kAScale = 3ull << 40, kBScale = 4ull << 40, kC = 5ull << 40;

// blockfp8_gemm with a valid M = 4, N = 256, K = 512 problem, one argument changed by `edit`.
struct Args {
  int64_t m = 4, n = 256, k = 512;
  const void* a = reinterpret_cast<const void*>(kA);
  int64_t lda = 512;
  const float* a_scale = reinterpret_cast<const float*>(kAScale);
  int64_t sa_m = 4, sa_k = 1;
  const void* b = reinterpret_cast<const void*>(kB);
  int64_t ldb = 512;
  const float* b_scale = reinterpret_cast<const float*>(kBScale);
  int64_t sb_n = 4, sb_k = 1;
  void* c = reinterpret_cast<void*>(kC);
  int64_t ldc = 256;
  blockfp8_dtype_t dtype = BLOCKFP8_DTYPE_BF16;

  blockfp8_status_t gemm() const {
    return blockfp8_gemm(m, n, k, a, lda, a_scale, sa_m, sa_k, b, ldb, b_scale, sb_n, sb_k, c, ldc, dtype, nullptr);
  }
  blockfp8_status_t gemm_ex(const blockfp8_config_t* cfg) const {
    return blockfp8_gemm_ex(m, n, k, a, lda, a_scale, sa_m, sa_k, b, ldb, b_scale, sb_n, sb_k, c, ldc, dtype, cfg,
                            nullptr);
  }
};

template <class Edit>
void expect_status(blockfp8_status_t want, Edit edit) {
  Args args;
  edit(args);
  EXPECT_EQ(args.gemm(), want) << blockfp8_status_string(args.gemm());
  blockfp8_config_t simt{};
  simt.kernel = BLOCKFP8_KERNEL_SIMT;
  EXPECT_EQ(args.gemm_ex(nullptr), want);
  EXPECT_EQ(args.gemm_ex(&simt), want);  // argument errors come before the configuration
}

TEST(ApiErrors, NullPointer) {
  expect_status(BLOCKFP8_ERROR_NULL_POINTER, [](Args& a) { a.a = nullptr; });
  expect_status(BLOCKFP8_ERROR_NULL_POINTER, [](Args& a) { a.b = nullptr; });
  expect_status(BLOCKFP8_ERROR_NULL_POINTER, [](Args& a) { a.a_scale = nullptr; });
  expect_status(BLOCKFP8_ERROR_NULL_POINTER, [](Args& a) { a.b_scale = nullptr; });
  expect_status(BLOCKFP8_ERROR_NULL_POINTER, [](Args& a) { a.c = nullptr; });
  expect_status(BLOCKFP8_ERROR_NULL_POINTER, [](Args& a) { a.m = 0, a.b = nullptr; });
}

TEST(ApiErrors, InvalidShape) {
  expect_status(BLOCKFP8_ERROR_INVALID_SHAPE, [](Args& a) { a.m = -1; });
  expect_status(BLOCKFP8_ERROR_INVALID_SHAPE, [](Args& a) { a.n = 0; });
  expect_status(BLOCKFP8_ERROR_INVALID_SHAPE, [](Args& a) { a.k = 0; });
  expect_status(BLOCKFP8_ERROR_INVALID_SHAPE, [](Args& a) { a.m = int64_t{1} << 31; });
  expect_status(BLOCKFP8_ERROR_INVALID_SHAPE, [](Args& a) { a.lda = int64_t{1} << 62; });  // byte extent overflows
}

TEST(ApiErrors, KNotMultipleOf128) {
  expect_status(BLOCKFP8_ERROR_K_NOT_MULTIPLE_OF_128, [](Args& a) { a.k = 500, a.lda = a.ldb = 500; });
}

TEST(ApiErrors, InvalidStride) {
  expect_status(BLOCKFP8_ERROR_INVALID_STRIDE, [](Args& a) { a.lda = 511; });
  expect_status(BLOCKFP8_ERROR_INVALID_STRIDE, [](Args& a) { a.ldb = 511; });
  expect_status(BLOCKFP8_ERROR_INVALID_STRIDE, [](Args& a) { a.ldc = 255; });
  expect_status(BLOCKFP8_ERROR_INVALID_STRIDE, [](Args& a) { a.sa_m = -4; });
  expect_status(BLOCKFP8_ERROR_INVALID_STRIDE, [](Args& a) { a.sb_k = -1; });
  expect_status(BLOCKFP8_ERROR_INVALID_STRIDE, [](Args& a) { a.sa_m = 1, a.sa_k = 1; });  // aliasing elements
}

TEST(ApiErrors, Misaligned) {
  expect_status(BLOCKFP8_ERROR_MISALIGNED, [](Args& a) { a.c = reinterpret_cast<void*>(kC + 1); });
  expect_status(BLOCKFP8_ERROR_MISALIGNED,
                [](Args& a) { a.dtype = BLOCKFP8_DTYPE_FP32, a.c = reinterpret_cast<void*>(kC + 2); });
  expect_status(BLOCKFP8_ERROR_MISALIGNED, [](Args& a) { a.a_scale = reinterpret_cast<const float*>(kAScale + 2); });
  expect_status(BLOCKFP8_ERROR_MISALIGNED, [](Args& a) { a.b_scale = reinterpret_cast<const float*>(kBScale + 1); });
}

TEST(ApiErrors, InvalidDtype) {
  expect_status(BLOCKFP8_ERROR_INVALID_DTYPE, [](Args& a) { a.dtype = static_cast<blockfp8_dtype_t>(3); });
  expect_status(BLOCKFP8_ERROR_INVALID_DTYPE, [](Args& a) {
    const int negative = -1;  // a value outside the enum, as a C caller can pass
    a.dtype = static_cast<blockfp8_dtype_t>(negative);
  });
}

TEST(ApiErrors, Aliasing) {
  expect_status(BLOCKFP8_ERROR_ALIASING, [](Args& a) { a.c = const_cast<void*>(a.a); });
  expect_status(BLOCKFP8_ERROR_ALIASING, [](Args& a) { a.c = reinterpret_cast<void*>(kB + 256); });
  expect_status(BLOCKFP8_ERROR_ALIASING, [](Args& a) { a.c = reinterpret_cast<void*>(kAScale); });
  expect_status(BLOCKFP8_ERROR_ALIASING, [](Args& a) { a.b_scale = reinterpret_cast<const float*>(kC + 64); });
}

// M == 0 returns before any CUDA call: succeeds even without a GPU.
TEST(ApiErrors, ZeroMIsANoOp) {
  Args args;
  args.m = 0, args.a = nullptr, args.a_scale = nullptr, args.c = nullptr;
  EXPECT_EQ(args.gemm(), BLOCKFP8_SUCCESS);
  EXPECT_EQ(args.gemm_ex(nullptr), BLOCKFP8_SUCCESS);
}

TEST(ApiErrors, PlanArguments) {
  blockfp8_config_t cfg{};
  EXPECT_EQ(blockfp8_gemm_plan(4, 256, 512, nullptr), BLOCKFP8_ERROR_INVALID_VALUE);
  EXPECT_EQ(blockfp8_gemm_plan(4, 0, 512, &cfg), BLOCKFP8_ERROR_INVALID_SHAPE);
  EXPECT_EQ(blockfp8_gemm_plan(-1, 256, 512, &cfg), BLOCKFP8_ERROR_INVALID_SHAPE);
  EXPECT_EQ(blockfp8_gemm_plan(4, 256, 500, &cfg), BLOCKFP8_ERROR_K_NOT_MULTIPLE_OF_128);
  EXPECT_EQ(blockfp8_config_resolve(4, 256, 512, nullptr), BLOCKFP8_ERROR_INVALID_VALUE);
  cfg.kernel = BLOCKFP8_KERNEL_TILED;
  EXPECT_EQ(blockfp8_config_resolve(4, 0, 512, &cfg), BLOCKFP8_ERROR_INVALID_SHAPE);
  EXPECT_EQ(blockfp8_config_resolve(4, 256, 500, &cfg), BLOCKFP8_ERROR_K_NOT_MULTIPLE_OF_128);
}

TEST(StatusString, DistinctAndNonEmpty) {
  std::set<std::string> seen;
  for (int s = BLOCKFP8_SUCCESS; s <= BLOCKFP8_ERROR_INVALID_VALUE; ++s) {
    const char* str = blockfp8_status_string(static_cast<blockfp8_status_t>(s));
    ASSERT_NE(str, nullptr) << s;
    EXPECT_GT(std::strlen(str), 0u) << s;
    EXPECT_TRUE(seen.insert(str).second) << "status " << s << " shares its string: " << str;
  }
  for (int unknown : {-1, BLOCKFP8_ERROR_INVALID_VALUE + 1, 1000}) {
    const char* str = blockfp8_status_string(static_cast<blockfp8_status_t>(unknown));
    ASSERT_NE(str, nullptr) << unknown;
    EXPECT_GT(std::strlen(str), 0u) << unknown;
    EXPECT_EQ(seen.count(str), 0u) << "unknown status " << unknown << " reads as a known one: " << str;
  }
  EXPECT_STREQ(blockfp8::to_string(BLOCKFP8_SUCCESS), blockfp8_status_string(BLOCKFP8_SUCCESS));
}

TEST(Version, MatchesHeader) {
  const std::string want = std::to_string(BLOCKFP8_VERSION_MAJOR) + "." + std::to_string(BLOCKFP8_VERSION_MINOR) +
                           "." + std::to_string(BLOCKFP8_VERSION_PATCH);
  EXPECT_EQ(want, blockfp8_version_string());
}

TEST(ConfigName, ExamplesAndSnprintfContract) {
  // The header's example: token tile 16, split 4, 2 warpgroups, 14 stages.
  blockfp8_config_t swapab{}, simt{};
  swapab.kernel = BLOCKFP8_KERNEL_SWAPAB_SPLITK, swapab.token_tile = 16, swapab.split_k = 4;
  swapab.warpgroups = 2, swapab.stages = 14;
  simt.kernel = BLOCKFP8_KERNEL_SIMT;
  EXPECT_EQ(blockfp8::config_name(swapab), "swapab_r0_t16_s4_w2_k0_p14");
  EXPECT_EQ(blockfp8::config_name(simt), "simt");
  char buf[4];
  EXPECT_EQ(blockfp8_config_name(&swapab, buf, sizeof buf), int(std::strlen("swapab_r0_t16_s4_w2_k0_p14")));
  EXPECT_STREQ(buf, "swa");  // truncated and terminated
  EXPECT_EQ(blockfp8_config_name(&simt, nullptr, 0), 4);
}

}  // namespace

// ---- blockfp8_quantize_1x128 ----------------------------------------------------------------------

namespace {

constexpr uintptr_t kX = 6ull << 40, kQ = 7ull << 40, kS = 8ull << 40;

struct QArgs {
  int64_t m = 4, k = 512;
  const void* x = reinterpret_cast<const void*>(kX);
  int64_t ldx = 512;
  blockfp8_dtype_t dtype = BLOCKFP8_DTYPE_BF16;
  void* x_q = reinterpret_cast<void*>(kQ);
  int64_t ldq = 512;
  float* scales = reinterpret_cast<float*>(kS);
  int64_t ss_m = 4, ss_k = 1;
  blockfp8_scale_format_t fmt = BLOCKFP8_SCALE_FP32;

  blockfp8_status_t run() const {
    return blockfp8_quantize_1x128(m, k, x, ldx, dtype, x_q, ldq, scales, ss_m, ss_k, fmt, nullptr);
  }
};

constexpr ExpectRunStatus<QArgs> expect_quant_status{};

TEST(QuantizeApiErrors, Arguments) {
  expect_quant_status(BLOCKFP8_ERROR_NULL_POINTER, [](QArgs& a) { a.x = nullptr; });
  expect_quant_status(BLOCKFP8_ERROR_NULL_POINTER, [](QArgs& a) { a.x_q = nullptr; });
  expect_quant_status(BLOCKFP8_ERROR_NULL_POINTER, [](QArgs& a) { a.scales = nullptr; });
  expect_quant_status(BLOCKFP8_ERROR_INVALID_SHAPE, [](QArgs& a) { a.m = -1; });
  expect_quant_status(BLOCKFP8_ERROR_INVALID_SHAPE, [](QArgs& a) { a.k = 0; });
  expect_quant_status(BLOCKFP8_ERROR_K_NOT_MULTIPLE_OF_128, [](QArgs& a) { a.k = 200, a.ldx = a.ldq = 200; });
  expect_quant_status(BLOCKFP8_ERROR_INVALID_STRIDE, [](QArgs& a) { a.ldx = 511; });
  expect_quant_status(BLOCKFP8_ERROR_INVALID_STRIDE, [](QArgs& a) { a.ldq = 100; });
  expect_quant_status(BLOCKFP8_ERROR_INVALID_STRIDE, [](QArgs& a) { a.ss_k = 0; });
  expect_quant_status(BLOCKFP8_ERROR_INVALID_STRIDE, [](QArgs& a) { a.ss_m = 1, a.ss_k = 1; });
  expect_quant_status(BLOCKFP8_ERROR_MISALIGNED, [](QArgs& a) { a.x = reinterpret_cast<const void*>(kX + 1); });
  expect_quant_status(BLOCKFP8_ERROR_MISALIGNED, [](QArgs& a) { a.scales = reinterpret_cast<float*>(kS + 2); });
  expect_quant_status(BLOCKFP8_ERROR_INVALID_DTYPE, [](QArgs& a) { a.dtype = static_cast<blockfp8_dtype_t>(7); });
  expect_quant_status(BLOCKFP8_ERROR_INVALID_VALUE, [](QArgs& a) { a.fmt = static_cast<blockfp8_scale_format_t>(2); });
  expect_quant_status(BLOCKFP8_ERROR_ALIASING, [](QArgs& a) { a.x_q = const_cast<void*>(a.x); });
  expect_quant_status(BLOCKFP8_ERROR_ALIASING, [](QArgs& a) { a.scales = reinterpret_cast<float*>(kQ + 16); });
}

TEST(QuantizeApiErrors, ZeroMIsANoOp) {
  QArgs args;
  args.m = 0, args.x = nullptr, args.x_q = nullptr, args.scales = nullptr;
  EXPECT_EQ(args.run(), BLOCKFP8_SUCCESS);
}

}  // namespace

// ---- blockfp8_gemm_bf16a and its workspace size ---------------------------------------------------
// Argument errors come before any CUDA call, so they are checked here without a GPU. What needs the
// device (a workspace missing or too small for the two-launch path) is in tests/gpu/test_reliability.cpp.

namespace {

constexpr uintptr_t kFX = 9ull << 40, kFW = 10ull << 40;

struct FArgs {
  int64_t m = 4, n = 256, k = 512;
  const void* x = reinterpret_cast<const void*>(kFX);
  int64_t ldx = 512;
  blockfp8_dtype_t x_dtype = BLOCKFP8_DTYPE_BF16;
  const void* b = reinterpret_cast<const void*>(kB);
  int64_t ldb = 512;
  const float* b_scale = reinterpret_cast<const float*>(kBScale);
  int64_t sb_n = 4, sb_k = 1;
  void* c = reinterpret_cast<void*>(kC);
  int64_t ldc = 256;
  blockfp8_dtype_t c_dtype = BLOCKFP8_DTYPE_BF16;
  blockfp8_scale_format_t fmt = BLOCKFP8_SCALE_FP32;
  void* ws = reinterpret_cast<void*>(kFW);
  size_t ws_bytes = size_t(1) << 20;

  blockfp8_status_t run() const {
    return blockfp8_gemm_bf16a(m, n, k, x, ldx, x_dtype, b, ldb, b_scale, sb_n, sb_k, c, ldc, c_dtype, fmt, ws,
                               ws_bytes, nullptr);
  }
};

constexpr ExpectRunStatus<FArgs> expect_fused_status{};

TEST(FusedApiErrors, Arguments) {
  expect_fused_status(BLOCKFP8_ERROR_NULL_POINTER, [](FArgs& a) { a.x = nullptr; });
  expect_fused_status(BLOCKFP8_ERROR_NULL_POINTER, [](FArgs& a) { a.b = nullptr; });
  expect_fused_status(BLOCKFP8_ERROR_NULL_POINTER, [](FArgs& a) { a.b_scale = nullptr; });
  expect_fused_status(BLOCKFP8_ERROR_NULL_POINTER, [](FArgs& a) { a.c = nullptr; });
  expect_fused_status(BLOCKFP8_ERROR_NULL_POINTER, [](FArgs& a) { a.m = 0, a.b = nullptr; });
  expect_fused_status(BLOCKFP8_ERROR_INVALID_SHAPE, [](FArgs& a) { a.m = -1; });
  expect_fused_status(BLOCKFP8_ERROR_INVALID_SHAPE, [](FArgs& a) { a.n = 0; });
  expect_fused_status(BLOCKFP8_ERROR_INVALID_SHAPE, [](FArgs& a) { a.k = 0; });
  expect_fused_status(BLOCKFP8_ERROR_INVALID_SHAPE, [](FArgs& a) { a.m = int64_t{1} << 31; });
  expect_fused_status(BLOCKFP8_ERROR_INVALID_SHAPE, [](FArgs& a) { a.ldx = int64_t{1} << 62; });
  expect_fused_status(BLOCKFP8_ERROR_K_NOT_MULTIPLE_OF_128, [](FArgs& a) { a.k = 500, a.ldx = a.ldb = 500; });
  expect_fused_status(BLOCKFP8_ERROR_INVALID_STRIDE, [](FArgs& a) { a.ldx = 511; });
  expect_fused_status(BLOCKFP8_ERROR_INVALID_STRIDE, [](FArgs& a) { a.ldb = 511; });
  expect_fused_status(BLOCKFP8_ERROR_INVALID_STRIDE, [](FArgs& a) { a.ldc = 255; });
  expect_fused_status(BLOCKFP8_ERROR_INVALID_STRIDE, [](FArgs& a) { a.sb_k = -1; });
  expect_fused_status(BLOCKFP8_ERROR_INVALID_STRIDE, [](FArgs& a) { a.n = a.ldc = 300, a.sb_n = 1, a.sb_k = 1; });
  expect_fused_status(BLOCKFP8_ERROR_MISALIGNED, [](FArgs& a) { a.x = reinterpret_cast<const void*>(kFX + 1); });
  expect_fused_status(BLOCKFP8_ERROR_MISALIGNED, [](FArgs& a) {
    a.x_dtype = BLOCKFP8_DTYPE_FP32, a.x = reinterpret_cast<const void*>(kFX + 2);
  });
  expect_fused_status(BLOCKFP8_ERROR_MISALIGNED, [](FArgs& a) { a.c = reinterpret_cast<void*>(kC + 1); });
  expect_fused_status(BLOCKFP8_ERROR_MISALIGNED,
                      [](FArgs& a) { a.b_scale = reinterpret_cast<const float*>(kBScale + 2); });
  expect_fused_status(BLOCKFP8_ERROR_INVALID_DTYPE, [](FArgs& a) { a.x_dtype = static_cast<blockfp8_dtype_t>(3); });
  expect_fused_status(BLOCKFP8_ERROR_INVALID_DTYPE, [](FArgs& a) { a.c_dtype = static_cast<blockfp8_dtype_t>(-1); });
  expect_fused_status(BLOCKFP8_ERROR_INVALID_VALUE, [](FArgs& a) { a.fmt = static_cast<blockfp8_scale_format_t>(2); });
  expect_fused_status(BLOCKFP8_ERROR_ALIASING, [](FArgs& a) { a.c = const_cast<void*>(a.x); });
  expect_fused_status(BLOCKFP8_ERROR_ALIASING, [](FArgs& a) { a.c = reinterpret_cast<void*>(kB + 256); });
  expect_fused_status(BLOCKFP8_ERROR_ALIASING, [](FArgs& a) { a.c = reinterpret_cast<void*>(kBScale); });
  expect_fused_status(BLOCKFP8_ERROR_ALIASING, [](FArgs& a) { a.ws = reinterpret_cast<void*>(kC); });
  expect_fused_status(BLOCKFP8_ERROR_ALIASING, [](FArgs& a) { a.ws = const_cast<void*>(a.x); });
  expect_fused_status(BLOCKFP8_ERROR_ALIASING, [](FArgs& a) { a.ws = reinterpret_cast<void*>(kB + 64); });
  expect_fused_status(BLOCKFP8_ERROR_ALIASING, [](FArgs& a) { a.ws = reinterpret_cast<void*>(kBScale); });
}

// M == 0 returns before any CUDA call: succeeds without a GPU, X, C and the workspace NULL.
TEST(FusedApiErrors, ZeroMIsANoOp) {
  FArgs args;
  args.m = 0, args.x = nullptr, args.c = nullptr, args.ws = nullptr, args.ws_bytes = 0;
  EXPECT_EQ(args.run(), BLOCKFP8_SUCCESS);
}

TEST(FusedApiErrors, WorkspaceSizeArguments) {
  const void* x = reinterpret_cast<const void*>(kFX);
  const void* b = reinterpret_cast<const void*>(kB);
  size_t bytes = 12345;
  // A NULL out-parameter: INVALID_VALUE, as blockfp8_gemm_plan answers.
  EXPECT_EQ(blockfp8_gemm_bf16a_workspace_size(4, 256, 512, x, 512, BLOCKFP8_DTYPE_BF16, b, 512, nullptr),
            BLOCKFP8_ERROR_INVALID_VALUE);
  EXPECT_EQ(blockfp8_gemm_bf16a_workspace_size(4, 256, 500, x, 500, BLOCKFP8_DTYPE_BF16, b, 500, &bytes),
            BLOCKFP8_ERROR_K_NOT_MULTIPLE_OF_128);
  EXPECT_EQ(blockfp8_gemm_bf16a_workspace_size(4, 256, 0, x, 512, BLOCKFP8_DTYPE_BF16, b, 512, &bytes),
            BLOCKFP8_ERROR_INVALID_SHAPE);
  EXPECT_EQ(blockfp8_gemm_bf16a_workspace_size(-1, 256, 512, x, 512, BLOCKFP8_DTYPE_BF16, b, 512, &bytes),
            BLOCKFP8_ERROR_INVALID_SHAPE);
  EXPECT_EQ(blockfp8_gemm_bf16a_workspace_size(4, 0, 512, x, 512, BLOCKFP8_DTYPE_BF16, b, 512, &bytes),
            BLOCKFP8_ERROR_INVALID_SHAPE);
  EXPECT_EQ(blockfp8_gemm_bf16a_workspace_size(int64_t{1} << 31, 256, 512, x, 512, BLOCKFP8_DTYPE_BF16, b, 512, &bytes),
            BLOCKFP8_ERROR_INVALID_SHAPE);
  // M == 0 needs nothing, and is answered without a device.
  bytes = 12345;
  EXPECT_EQ(blockfp8_gemm_bf16a_workspace_size(0, 256, 512, nullptr, 512, BLOCKFP8_DTYPE_BF16, b, 512, &bytes),
            BLOCKFP8_SUCCESS);
  EXPECT_EQ(bytes, 0u);
}

}  // namespace
