// The C ABI: argument checking, then the dispatcher, then one kernel family's launcher.
// Follow one call: blockfp8_gemm -> validate (validate.cpp) -> planned_config (dispatch.cpp)
// -> launch_swapab_splitk (kernels/swapab_splitk.cu), launch_swapab_warpmma (kernels/swapab_warpmma.cu),
// launch_tiled_gemm (kernels/tiled_gemm.cu) or launch_simt_gemm (kernels/simt_gemm.cu).
// The quantiser: blockfp8_quantize_1x128 -> validate_quantize -> launch_quantize_1x128
// (kernels/quantize_1x128.cu). From bf16 activations: blockfp8_gemm_bf16a -> validate_fused ->
// plan_fused -> launch_swapab_fused (kernels/swapab_splitk.cu) or launch_swapab_warpmma_fused
// (kernels/swapab_warpmma.cu), or the quantiser then the GEMM.
#include <cstdio>

#include "blockfp8/blockfp8.h"
#include "device_info.h"
#include "dispatch.h"
#include "dispatch_tiled.h"
#include "kernels/host_support.h"
#include "kernels/launch.h"
#include "problem.h"
#include "validate.h"

using namespace blockfp8::detail;

namespace {

#define BLOCKFP8_STR2(x) #x
#define BLOCKFP8_STR(x) BLOCKFP8_STR2(x)
constexpr const char* kVersion =
    BLOCKFP8_STR(BLOCKFP8_VERSION_MAJOR) "." BLOCKFP8_STR(BLOCKFP8_VERSION_MINOR) "." BLOCKFP8_STR(BLOCKFP8_VERSION_PATCH);

blockfp8_status_t hopper_device(const DeviceInfo** dev) {
  const blockfp8_status_t st = current_device_info(dev);
  if (st != BLOCKFP8_SUCCESS) return st;
  if ((*dev)->cc_major != 9 || (*dev)->cc_minor != 0) return BLOCKFP8_ERROR_UNSUPPORTED_DEVICE;
  return BLOCKFP8_SUCCESS;
}

// The dispatcher's choice (one configuration for every M when `invariant`), or the SIMT kernel
// where the fast kernels cannot take the problem: TMA-hostile pointers, or a K slice whose scales
// leave no room for a ring. SIMT sums each output in k order whatever M, so it is batch invariant too.
blockfp8_config_t auto_config(int64_t m, int64_t n, int64_t k, const DeviceInfo& dev, bool invariant, bool tma_ok) {
  blockfp8_config_t cfg{};
  cfg.kernel = BLOCKFP8_KERNEL_SIMT;
  if (!tma_ok) return cfg;
  // choose_config + check_config walk the cost model over every split and tile height: 1.1-1.5 us of
  // host time a call on the development CPU, more than the rest of the C call. A serving loop repeats
  // a few shapes, so the answer is kept per thread (no locks), direct-mapped by shape; a collision only
  // costs a recomputation. DeviceInfo is fixed per ordinal, so (ordinal, shape, invariant) is the key.
  struct Plan {
    int64_t m = -1, n = 0, k = 0;
    int ordinal = 0;
    bool invariant = false;
    blockfp8_config_t cfg{};
  };
  thread_local Plan plans[64];
  Plan& slot = plans[(uint64_t(m) * 1000003u + uint64_t(n) * 1009u + uint64_t(k) + uint64_t(dev.ordinal) * 31u +
                      uint64_t(invariant)) % 64];
  if (slot.m == m && slot.n == n && slot.k == k && slot.ordinal == dev.ordinal && slot.invariant == invariant)
    return slot.cfg;
  cfg = planned_config(m, n, k, dev, invariant);
  slot = Plan{m, n, k, dev.ordinal, invariant, cfg};
  return cfg;
}

// How blockfp8_gemm_bf16a serves a call: the fused TMA decode kernel's ring (0: not that kernel), or
// the fused warp-MMA kernel, or else two launches, with the workspace they need (X_q [M][K] bytes,
// then the scales: column-major with M rounded up to 4 for the tiled kernel from 128 tokens, which
// then fetches a k-block's 128 token scales with one TMA request; row-major [M][K/128] for the others).
struct FusedPlan {
  blockfp8_config_t cfg;
  int fused_stages;
  bool warpmma_fused;
  size_t workspace_bytes;
  size_t scales_offset;
  int64_t scale_stride_m, scale_stride_k;
};

// The one-launch path is on unless BLOCKFP8_FUSED=0 (read once; a diagnostic switch for measuring
// it against the two launches).
bool fused_enabled() {
  static const bool on = env_switch("BLOCKFP8_FUSED", true);
  return on;
}

// The configuration blockfp8_gemm would run on the quantiser's output: A is then the 16-byte aligned
// workspace with lda = K (a multiple of 128), so only B decides whether TMA can read the operands.
// The fused kernel follows the same configuration, to give the same bits.
FusedPlan plan_fused(int64_t m, int64_t n, int64_t k, const void* x, int64_t ldx, blockfp8_dtype_t x_dtype,
                     const void* b, int64_t ldb, const DeviceInfo& dev) {
  FusedPlan f{};
  f.cfg = auto_config(m, n, k, dev, /*invariant=*/false, tma_operand_ok(b, ldb));
  const bool x_ok = x_dtype == BLOCKFP8_DTYPE_BF16 && reinterpret_cast<uintptr_t>(x) % 16 == 0 && ldx % 8 == 0;
  f.fused_stages = x_ok && fused_enabled() ? swapab_fused_stages(f.cfg, m, n, k, dev) : 0;
  f.warpmma_fused = x_ok && fused_enabled() && warpmma_fused_ok(f.cfg, m, n, k, dev);
  f.scales_offset = size_t((m * k + 15) / 16 * 16);
  // Below one whole token tile most of that request would lie past M, and the TMA engine's zero fill
  // is slow: with it the two launches on 7168x1024 at M = 33 took 1.10x the old decode plan's time (s25
  // call 5); row-major scales took 0.945x of that (call 6). So column-major only from 128 tokens.
  const bool col = f.cfg.kernel == BLOCKFP8_KERNEL_TILED && m >= kTiledTokenTile;
  const int64_t rows = col ? tiled_aligned_scale_ld(m) : m;
  f.scale_stride_m = col ? 1 : k / 128;
  f.scale_stride_k = col ? rows : 1;
  f.workspace_bytes = f.fused_stages || f.warpmma_fused ? 0 : f.scales_offset + size_t(rows * (k / 128)) * 4;
  return f;
}

// One GEMM on a validated problem with a checked configuration.
blockfp8_status_t launch(const Problem& p, const blockfp8_config_t& cfg, const DeviceInfo& dev, cudaStream_t stream) {
  switch (cfg.kernel) {
    case BLOCKFP8_KERNEL_SWAPAB_SPLITK: return launch_swapab_splitk(p, cfg, dev, stream);
    case BLOCKFP8_KERNEL_SIMT: return launch_simt_gemm(p, stream);
    case BLOCKFP8_KERNEL_TILED: return launch_tiled_gemm(p, cfg, dev, stream);
    case BLOCKFP8_KERNEL_WARP_MMA: return launch_swapab_warpmma(p, cfg, dev, stream);
    default: return BLOCKFP8_ERROR_INVALID_CONFIG;
  }
}

}  // namespace

extern "C" {

BLOCKFP8_API const char* blockfp8_status_string(blockfp8_status_t status) {
  switch (status) {
    case BLOCKFP8_SUCCESS: return "success";
    case BLOCKFP8_ERROR_NULL_POINTER: return "a required pointer is NULL";
    case BLOCKFP8_ERROR_INVALID_SHAPE: return "invalid shape: need M >= 0, N >= 1, K >= 1, each < 2^31";
    case BLOCKFP8_ERROR_K_NOT_MULTIPLE_OF_128: return "K must be a positive multiple of 128";
    case BLOCKFP8_ERROR_INVALID_STRIDE:
      return "invalid stride: need lda >= K, ldb >= K, ldc >= N (ldx, ldq >= K), scale strides >= 0 and not "
             "aliasing";
    case BLOCKFP8_ERROR_MISALIGNED: return "misaligned pointer: C or X to its element size, scales to 4 bytes";
    case BLOCKFP8_ERROR_INVALID_DTYPE: return "invalid dtype";
    case BLOCKFP8_ERROR_ALIASING: return "an output tensor overlaps an input or another output";
    case BLOCKFP8_ERROR_UNSUPPORTED_DEVICE: return "the current device is not a Hopper GPU (compute capability 9.0)";
    case BLOCKFP8_ERROR_INVALID_CONFIG: return "the forced kernel configuration cannot run this problem";
    case BLOCKFP8_ERROR_CUDA: return "a CUDA runtime call or kernel launch failed";
    case BLOCKFP8_ERROR_INVALID_VALUE: return "invalid argument";
  }
  return "unknown blockfp8 status";
}

BLOCKFP8_API const char* blockfp8_version_string(void) { return kVersion; }

BLOCKFP8_API blockfp8_status_t blockfp8_gemm_ex(
    int64_t m, int64_t n, int64_t k, const void* a, int64_t lda, const float* a_scale, int64_t a_scale_stride_m,
    int64_t a_scale_stride_k, const void* b, int64_t ldb, const float* b_scale, int64_t b_scale_stride_n,
    int64_t b_scale_stride_k, void* c, int64_t ldc, blockfp8_dtype_t c_dtype, const blockfp8_config_t* config,
    cudaStream_t stream) {
  Problem p;
  p.m = m, p.n = n, p.k = k;
  p.a = a, p.lda = lda, p.a_scale = a_scale, p.a_scale_stride_m = a_scale_stride_m, p.a_scale_stride_k = a_scale_stride_k;
  p.b = b, p.ldb = ldb, p.b_scale = b_scale, p.b_scale_stride_n = b_scale_stride_n, p.b_scale_stride_k = b_scale_stride_k;
  p.c = c, p.ldc = ldc, p.c_dtype = c_dtype;
  blockfp8_status_t st = validate(p);
  if (st != BLOCKFP8_SUCCESS || p.m == 0) return st;

  const DeviceInfo* dev = nullptr;
  if ((st = hopper_device(&dev)) != BLOCKFP8_SUCCESS) return st;

  constexpr int32_t kKnownFlags = BLOCKFP8_FLAG_BATCH_INVARIANT | BLOCKFP8_FLAG_CONST_WEIGHTS;
  if (config && (config->flags & ~kKnownFlags)) return BLOCKFP8_ERROR_INVALID_CONFIG;
  blockfp8_config_t cfg{};
  if (config && config->kernel != BLOCKFP8_KERNEL_AUTO) {
    cfg = *config;
    // Both wgmma kernels read A and B with TMA; only SIMT takes any alignment.
    if (cfg.kernel != BLOCKFP8_KERNEL_SIMT && !tma_compatible(p)) return BLOCKFP8_ERROR_INVALID_CONFIG;
    if ((st = check_config(cfg, m, n, k, *dev)) != BLOCKFP8_SUCCESS) return st;
  } else {
    const bool invariant = config && (config->flags & BLOCKFP8_FLAG_BATCH_INVARIANT);
    cfg = auto_config(m, n, k, *dev, invariant, tma_compatible(p));
    if (config) cfg.flags |= config->flags & BLOCKFP8_FLAG_CONST_WEIGHTS;
  }
  return launch(p, cfg, *dev, stream);
}

BLOCKFP8_API blockfp8_status_t blockfp8_gemm(int64_t m, int64_t n, int64_t k, const void* a, int64_t lda,
                                             const float* a_scale, int64_t a_scale_stride_m,
                                             int64_t a_scale_stride_k, const void* b, int64_t ldb,
                                             const float* b_scale, int64_t b_scale_stride_n,
                                             int64_t b_scale_stride_k, void* c, int64_t ldc,
                                             blockfp8_dtype_t c_dtype, cudaStream_t stream) {
  return blockfp8_gemm_ex(m, n, k, a, lda, a_scale, a_scale_stride_m, a_scale_stride_k, b, ldb, b_scale,
                          b_scale_stride_n, b_scale_stride_k, c, ldc, c_dtype, nullptr, stream);
}

BLOCKFP8_API blockfp8_status_t blockfp8_gemm_plan(int64_t m, int64_t n, int64_t k, blockfp8_config_t* config) {
  if (!config) return BLOCKFP8_ERROR_INVALID_VALUE;
  blockfp8_status_t st = validate_shape(m, n, k);
  if (st != BLOCKFP8_SUCCESS) return st;
  const DeviceInfo* dev = nullptr;
  if ((st = hopper_device(&dev)) != BLOCKFP8_SUCCESS) return st;
  *config = auto_config(m, n, k, *dev, /*invariant=*/false, /*tma_ok=*/true);
  return BLOCKFP8_SUCCESS;
}

BLOCKFP8_API blockfp8_status_t blockfp8_config_resolve(int64_t m, int64_t n, int64_t k, blockfp8_config_t* config) {
  if (!config) return BLOCKFP8_ERROR_INVALID_VALUE;
  if (config->kernel == BLOCKFP8_KERNEL_AUTO) return blockfp8_gemm_plan(m, n, k, config);
  blockfp8_status_t st = validate_shape(m, n, k);
  if (st != BLOCKFP8_SUCCESS) return st;
  const DeviceInfo* dev = nullptr;
  if ((st = hopper_device(&dev)) != BLOCKFP8_SUCCESS) return st;
  return check_config(*config, m, n, k, *dev);  // what blockfp8_gemm_ex does with a forced one
}

BLOCKFP8_API blockfp8_status_t blockfp8_quantize_1x128(int64_t m, int64_t k, const void* x, int64_t ldx,
                                                       blockfp8_dtype_t x_dtype, void* x_q, int64_t ldq,
                                                       float* scales, int64_t scale_stride_m,
                                                       int64_t scale_stride_k, blockfp8_scale_format_t fmt,
                                                       cudaStream_t stream) {
  QuantizeProblem q;
  q.m = m, q.k = k, q.x = x, q.ldx = ldx, q.x_dtype = x_dtype, q.x_q = x_q, q.ldq = ldq;
  q.scales = scales, q.scale_stride_m = scale_stride_m, q.scale_stride_k = scale_stride_k, q.fmt = fmt;
  blockfp8_status_t st = validate_quantize(q);
  if (st != BLOCKFP8_SUCCESS || q.m == 0) return st;
  const DeviceInfo* dev = nullptr;
  if ((st = hopper_device(&dev)) != BLOCKFP8_SUCCESS) return st;
  return launch_quantize_1x128(q, stream);
}

BLOCKFP8_API blockfp8_status_t blockfp8_gemm_bf16a(int64_t m, int64_t n, int64_t k, const void* x, int64_t ldx,
                                                   blockfp8_dtype_t x_dtype, const void* b, int64_t ldb,
                                                   const float* b_scale, int64_t b_scale_stride_n,
                                                   int64_t b_scale_stride_k, void* c, int64_t ldc,
                                                   blockfp8_dtype_t c_dtype, blockfp8_scale_format_t fmt,
                                                   void* workspace, size_t workspace_bytes, cudaStream_t stream) {
  Problem p;
  p.m = m, p.n = n, p.k = k;
  p.b = b, p.ldb = ldb, p.b_scale = b_scale, p.b_scale_stride_n = b_scale_stride_n, p.b_scale_stride_k = b_scale_stride_k;
  p.c = c, p.ldc = ldc, p.c_dtype = c_dtype;
  FusedA fa;
  fa.x = x, fa.ldx = ldx, fa.x_dtype = x_dtype, fa.fmt = fmt, fa.workspace = workspace, fa.workspace_bytes = workspace_bytes;
  blockfp8_status_t st = validate_fused(p, fa);
  if (st != BLOCKFP8_SUCCESS || m == 0) return st;
  const DeviceInfo* dev = nullptr;
  if ((st = hopper_device(&dev)) != BLOCKFP8_SUCCESS) return st;

  const FusedPlan plan = plan_fused(m, n, k, x, ldx, x_dtype, b, ldb, *dev);
  if (plan.fused_stages) return launch_swapab_fused(p, fa, plan.cfg, plan.fused_stages, *dev, stream);
  if (plan.warpmma_fused) return launch_swapab_warpmma_fused(p, fa, plan.cfg, *dev, stream);

  // Two launches through the workspace: the quantiser, then the GEMM with the configuration
  // blockfp8_gemm would choose (plan.cfg). validate_fused has checked every argument, the workspace
  // included (16-byte aligned, overlapping nothing), so neither is checked or dispatched again.
  if (!workspace || workspace_bytes < plan.workspace_bytes) return BLOCKFP8_ERROR_INVALID_VALUE;
  QuantizeProblem q;
  q.m = m, q.k = k, q.x = x, q.ldx = ldx, q.x_dtype = x_dtype, q.fmt = fmt;
  q.x_q = workspace, q.ldq = k;
  q.scales = reinterpret_cast<float*>(static_cast<uint8_t*>(workspace) + plan.scales_offset);
  q.scale_stride_m = plan.scale_stride_m, q.scale_stride_k = plan.scale_stride_k;
  // Diagnostic: BLOCKFP8_BF16A_QUANT_PDL=1 (always) or 0 (never) overrides the rule (read once), for
  // measuring where the quantiser under PDL wins (tools/env_ab.sh with AB_BACKEND=blockfp8_bf16a).
  static const int quant_pdl_forced = env_int("BLOCKFP8_BF16A_QUANT_PDL", -1);
  const bool quant_pdl = quant_pdl_forced < 0 ? bf16a_quantizer_pdl(m) : quant_pdl_forced != 0;
  // Launched early, its CTAs would pile onto the SMs the preceding kernel leaves free: spread them
  // (bf16a_quantizer_ctas_per_sm). BLOCKFP8_BF16A_QUANT_SPREAD=0 leaves them unbounded (diagnostic).
  static const bool quant_spread = env_switch("BLOCKFP8_BF16A_QUANT_SPREAD", true);
  if ((st = launch_quantize_1x128(q, stream, quant_pdl, quant_pdl && quant_spread ? dev : nullptr)) != BLOCKFP8_SUCCESS)
    return st;
  p.a = q.x_q, p.lda = k, p.a_scale = q.scales;
  p.a_scale_stride_m = plan.scale_stride_m, p.a_scale_stride_k = plan.scale_stride_k;
  // The quantiser lets this launch start early (launch_dependents): the GEMM's prologue overlaps it.
  // Streaming the weight before the quantiser ends too (BLOCKFP8_FLAG_CONST_WEIGHTS, whose condition
  // holds here by construction) measured 1.3 us slower at N = 2112, K = 7168, M = 1, so it is not set.
  return launch(p, plan.cfg, *dev, stream);
}

BLOCKFP8_API blockfp8_status_t blockfp8_gemm_bf16a_workspace_size(int64_t m, int64_t n, int64_t k, const void* x,
                                                                  int64_t ldx, blockfp8_dtype_t x_dtype, const void* b,
                                                                  int64_t ldb, size_t* bytes) {
  if (!bytes) return BLOCKFP8_ERROR_INVALID_VALUE;
  blockfp8_status_t st = validate_shape(m, n, k);
  if (st != BLOCKFP8_SUCCESS) return st;
  *bytes = 0;
  if (m == 0) return BLOCKFP8_SUCCESS;
  const DeviceInfo* dev = nullptr;
  if ((st = hopper_device(&dev)) != BLOCKFP8_SUCCESS) return st;
  *bytes = plan_fused(m, n, k, x, ldx, x_dtype, b, ldb, *dev).workspace_bytes;
  return BLOCKFP8_SUCCESS;
}

BLOCKFP8_API int blockfp8_config_name(const blockfp8_config_t* config, char* buf, size_t size) {
  if (!config) return std::snprintf(buf, size, "null");
  switch (config->kernel) {
    case BLOCKFP8_KERNEL_AUTO: return std::snprintf(buf, size, "auto");
    case BLOCKFP8_KERNEL_SIMT: return std::snprintf(buf, size, "simt");
    case BLOCKFP8_KERNEL_SWAPAB_SPLITK:
      return std::snprintf(buf, size, "swapab_r%d_t%d_s%d_w%d_k%d_p%d", config->weight_rows, config->token_tile,
                           config->split_k, config->warpgroups, config->stage_kblocks, config->stages);
    case BLOCKFP8_KERNEL_TILED:
      if (config->split_k > 1)  // K split over a cluster of split_k CTAs
        return std::snprintf(buf, size, "tiled_t%d_r%d_p%d_c%dx%d_k%d", config->token_tile, config->weight_rows,
                             config->stages, config->cluster_m, config->cluster_n, config->split_k);
      return std::snprintf(buf, size, "tiled_t%d_r%d_p%d_c%dx%d", config->token_tile, config->weight_rows,
                           config->stages, config->cluster_m, config->cluster_n);
    case BLOCKFP8_KERNEL_WARP_MMA:
      return std::snprintf(buf, size, "warpmma_r%d_t%d_s%d_w%d_k%d", config->weight_rows, config->token_tile,
                           config->split_k, config->warpgroups, config->stage_kblocks);
  }
  return std::snprintf(buf, size, "kernel%d", config->kernel);
}

}  // extern "C"
