/*
 * blockfp8 — block-scaled FP8 GEMM for NVIDIA Hopper (sm_90a).
 *
 *   C[m, n] = sum_{kb < K/128} ( sum_{k in block kb} A[m, k] * B[n, k] )
 *                              * a_scale[m, kb] * b_scale[n / 128, kb]
 *
 * A  : M x K  float8 e4m3, row-major, row stride lda (elements = bytes), K contiguous.
 * B  : N x K  float8 e4m3, row-major, row stride ldb, K contiguous (the weight, "NT").
 * a_scale : M x (K/128) fp32, element (m, kb) at a_scale[m * a_scale_stride_m + kb * a_scale_stride_k]
 *           (row-major: strides (K/128, 1); column-major: strides (1, M) or (1, M rounded up to 4),
 *           the TMA-aligned form the tiled kernel fetches one k-block at a time — all without a copy).
 * b_scale : ceil(N/128) x (K/128) fp32, element (nb, kb) at b_scale[nb * b_scale_stride_n + kb * b_scale_stride_k].
 * C  : M x N, row-major, row stride ldc, dtype bf16 / fp16 / fp32.
 * Scales are multipliers (DeepSeek's weight_scale_inv convention).
 *
 * Contract
 *   - M >= 0 (M == 0 is a no-op; A, a_scale and C may then be NULL), N >= 1, K a positive multiple of 128,
 *     each of M, N, K below 2^31. Any N: no padding, no N % 64 gate.
 *   - lda >= K, ldb >= K, ldc >= N. Scale strides are >= 0; a stride of 0 broadcasts; two non-zero
 *     strides must not make two elements share an address. A dimension of extent 1 ignores its stride.
 *   - C must not overlap A, B or either scale tensor.
 *   - C aligned to its element size, scales to 4 bytes. The fast kernels read A and B with the TMA
 *     engine, which needs 16-byte aligned bases and lda, ldb multiples of 16; other layouts are served
 *     by the (slow) SIMT kernel, never refused.
 *   - All pointers are device pointers on the current device; the stream belongs to that device.
 *   - No allocation, no host synchronisation, no JIT: every kernel is compiled ahead of time. Calls are
 *     safe inside CUDA-graph capture. The result is bitwise deterministic run to run.
 *
 * Every function returns a status; nothing throws across this ABI.
 */
#ifndef BLOCKFP8_BLOCKFP8_H_
#define BLOCKFP8_BLOCKFP8_H_

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define BLOCKFP8_API __declspec(dllexport)
#else
#define BLOCKFP8_API __attribute__((visibility("default")))
#endif

#define BLOCKFP8_VERSION_MAJOR 0
#define BLOCKFP8_VERSION_MINOR 1
#define BLOCKFP8_VERSION_PATCH 0

typedef enum blockfp8_status {
  BLOCKFP8_SUCCESS = 0,
  BLOCKFP8_ERROR_NULL_POINTER = 1,          /* a required pointer is NULL */
  BLOCKFP8_ERROR_INVALID_SHAPE = 2,         /* M < 0, N < 1, K < 1, or a size >= 2^31 */
  BLOCKFP8_ERROR_K_NOT_MULTIPLE_OF_128 = 3, /* K % 128 != 0 */
  BLOCKFP8_ERROR_INVALID_STRIDE = 4,        /* lda < K, ldb < K, ldc < N, negative or aliasing scale strides
                                               (quantiser: ldx < K, ldq < K, bad scale strides) */
  BLOCKFP8_ERROR_MISALIGNED = 5,            /* C, X or a scale pointer not aligned to its element size */
  BLOCKFP8_ERROR_INVALID_DTYPE = 6,         /* unknown output (or quantiser input) dtype */
  BLOCKFP8_ERROR_ALIASING = 7,              /* an output overlaps an input (or another output) */
  BLOCKFP8_ERROR_UNSUPPORTED_DEVICE = 8,    /* current device is not compute capability 9.0 */
  BLOCKFP8_ERROR_INVALID_CONFIG = 9,        /* a forced blockfp8_config_t cannot run this problem */
  BLOCKFP8_ERROR_CUDA = 10,                 /* a CUDA runtime call or launch failed */
  BLOCKFP8_ERROR_INVALID_VALUE = 11         /* any other invalid argument (e.g. a NULL out-parameter,
                                               an unknown blockfp8_scale_format_t) */
} blockfp8_status_t;

typedef enum blockfp8_dtype {
  BLOCKFP8_DTYPE_BF16 = 0,
  BLOCKFP8_DTYPE_FP16 = 1,
  BLOCKFP8_DTYPE_FP32 = 2
} blockfp8_dtype_t;

/* Kernel families. AUTO lets the dispatcher choose from (M, N, K, SM count). */
typedef enum blockfp8_kernel {
  BLOCKFP8_KERNEL_AUTO = 0,
  BLOCKFP8_KERNEL_SWAPAB_SPLITK = 1, /* decode: weight rows on wgmma M, tokens on wgmma N, K split over a cluster */
  BLOCKFP8_KERNEL_SIMT = 2,          /* plain CUDA cores; any alignment; the correctness fallback */
  BLOCKFP8_KERNEL_TILED = 3,         /* prefill: tokens on wgmma M (128-row tiles), weight rows on wgmma N */
  BLOCKFP8_KERNEL_WARP_MMA = 4       /* decode at a few tokens: one CTA a strip of weight rows over all K,
                                        each thread's own cp.async ring, warp-level fp8 MMA (mma.sync) */
} blockfp8_kernel_t;

/* A kernel configuration: what the dispatcher picked, or what a caller forces (benchmarks, tests). */
typedef struct blockfp8_config {
  int32_t kernel;      /* blockfp8_kernel_t */
  int32_t token_tile;  /* tokens (rows of C) per CTA tile. SWAPAB_SPLITK: 8, 16, 32, 64 or 128 (wgmma N).
                          TILED: 128 (two math warpgroups of 64 on wgmma M). WARP_MMA: 8, 16 or 32 */
  int32_t split_k;     /* SWAPAB_SPLITK, WARP_MMA: CTAs of one cluster sharing a tile along K: 1..8.
                          TILED: 1..8 (every cluster of the grid resident at once) */
  int32_t stages;      /* TMA pipeline depth; 0 = as deep as shared memory allows. WARP_MMA: 0 */
  int32_t warpgroups;  /* SWAPAB_SPLITK: math warpgroups, 1 or 2. Two take alternate stages of token
                          tiles up to 64 and split a 128-token tile by tokens (64 each). 0 = two
                          where they can run the problem, else one. WARP_MMA: the CTA's warps / 4,
                          1..4; 0 = default */
  int32_t weight_rows; /* weight rows (columns of C) per CTA tile; 0 = default.
                          SWAPAB_SPLITK: 16, 32, 40, 48, 56 or 64 (wgmma M is 64; a CTA may stream fewer
                          rows so that every SM gets an equal share of the weight; 40, 48 and 56 only
                          with two warpgroups at token tiles up to 64). TILED: wgmma N, a multiple of 16.
                          WARP_MMA: 16 or 32 */
  int32_t stage_kblocks; /* SWAPAB_SPLITK: 128-wide k-blocks per pipeline stage (one TMA box each for
                            weight and tokens): 1..16; 0 = default. WARP_MMA: k-blocks each thread
                            keeps in flight in its cp.async ring (2, 4 or 8, as instantiated); 0 = default */
  int32_t flags;         /* blockfp8_flags_t, ORed; read with kernel AUTO */
  int32_t cluster_m;     /* TILED: CTAs of a cluster on neighbouring token tiles, each multicasting its
                            share of their one weight tile to all: 1 or 2; 0 = default */
  int32_t cluster_n;     /* TILED: CTAs of a cluster on neighbouring weight tiles, each multicasting its
                            share of their one token tile to all: 1, 2 or 4; 0 = default. Both above 1
                            only as 2 x 2 or 2 x 4 (each token tile multicast along N, each weight tile
                            along M) at token_tile 128 or 256, weight_rows 128, split_k 1. Other kernels: 0 */
} blockfp8_config_t;

/* Flags of blockfp8_config_t. */
typedef enum blockfp8_flags {
  /* Row m of C does not depend on M: the same kernel, tiles, K split and reduction order for every M
     (the decode kernel at 32-token tiles with the K split chosen for M = 1), so a token's output is
     bitwise the same whether it is computed alone or in a batch. Slower than the default at large M. */
  BLOCKFP8_FLAG_BATCH_INVARIANT = 1,
  /* B and b_scale are not written by any work enqueued before this call on the stream that may still
     be running (the inference case: weights are loaded once). The decode kernels are always launched
     with programmatic dependent launch (each may start while the preceding kernel finishes, and waits
     for it before reading A, a_scale or writing C); with this flag the TMA decode kernel also starts
     streaming the weight before that wait, at token tiles up to 32 (the warp-MMA and tiled kernels,
     and wider tiles, where it measured slower, ignore it). Do not set it when a preceding kernel
     produces B or b_scale. Measured on an H200 in graphs of back-to-back calls (the benchmark's
     blockfp8_constw backend), it took 0.87-0.96x the default's time on many decode points (8- and
     16-token tiles on 12288x1536, 7168x4096-9216, 4608/6144/9216x7168) and 1.03-1.07x on a few
     small weights (2112x7168, 7168x2048/2304 at M = 16-32): measure before setting it. */
  BLOCKFP8_FLAG_CONST_WEIGHTS = 2
} blockfp8_flags_t;

BLOCKFP8_API const char* blockfp8_status_string(blockfp8_status_t status);
BLOCKFP8_API const char* blockfp8_version_string(void);

/* The GEMM, dispatcher's choice. */
BLOCKFP8_API blockfp8_status_t blockfp8_gemm(
    int64_t m, int64_t n, int64_t k,
    const void* a, int64_t lda,
    const float* a_scale, int64_t a_scale_stride_m, int64_t a_scale_stride_k,
    const void* b, int64_t ldb,
    const float* b_scale, int64_t b_scale_stride_n, int64_t b_scale_stride_k,
    void* c, int64_t ldc, blockfp8_dtype_t c_dtype,
    cudaStream_t stream);

/* The GEMM with a forced configuration (NULL or kernel == AUTO: the dispatcher's choice). With
   kernel == AUTO, config->flags may ask for BLOCKFP8_FLAG_BATCH_INVARIANT; any kernel takes
   BLOCKFP8_FLAG_CONST_WEIGHTS (only the TMA decode kernel, SWAPAB_SPLITK, uses it). */
BLOCKFP8_API blockfp8_status_t blockfp8_gemm_ex(
    int64_t m, int64_t n, int64_t k,
    const void* a, int64_t lda,
    const float* a_scale, int64_t a_scale_stride_m, int64_t a_scale_stride_k,
    const void* b, int64_t ldb,
    const float* b_scale, int64_t b_scale_stride_n, int64_t b_scale_stride_k,
    void* c, int64_t ldc, blockfp8_dtype_t c_dtype,
    const blockfp8_config_t* config,
    cudaStream_t stream);

/* What the dispatcher would run for (m, n, k) on the current device, assuming TMA-friendly alignment. */
BLOCKFP8_API blockfp8_status_t blockfp8_gemm_plan(int64_t m, int64_t n, int64_t k, blockfp8_config_t* config);

/* What blockfp8_gemm_ex runs a forced configuration as on the current device, assuming TMA-friendly
   alignment: its 0 (default) fields filled in, in place. BLOCKFP8_ERROR_INVALID_CONFIG where it cannot
   run this problem (config is then unspecified); kernel == AUTO: the dispatcher's choice, as
   blockfp8_gemm_plan. Tuning tools use it to tell which forced configurations are the same kernel. */
BLOCKFP8_API blockfp8_status_t blockfp8_config_resolve(int64_t m, int64_t n, int64_t k, blockfp8_config_t* config);

/* A short name for a configuration, e.g. "swapab_t16_s4_w2_p14" or "simt". Returns chars needed (like snprintf). */
BLOCKFP8_API int blockfp8_config_name(const blockfp8_config_t* config, char* buf, size_t size);

/* ------------------------------------------------------------------------------------------------
 * Activation quantiser: X (M x K, bf16 / fp16 / fp32) -> (X_q e4m3, 1x128 scales), the A operand and
 * a_scale of blockfp8_gemm, numerically identical to vLLM's per_token_group_quant_fp8 (group 128).
 *
 * Per row m and group kb (elements k in [128 kb, 128 kb + 128)), all in fp32:
 *   amax  = max(1e-10f, max_k |X[m, k]|)          (eps clamp: an all-zero group gets a tiny scale)
 *   s     = amax / 448.0f                          (IEEE division, round to nearest even)
 *   UE8M0 : s = 2^ceil(log2 s), i.e. s rounded UP to a power of two (exactly: if s's mantissa bits
 *           are non-zero its exponent is bumped and the mantissa cleared). Stored as the fp32 value
 *           2^e. This is DeepSeek-V3.1's `scale_fmt: ue8m0`: scale = 2^ceil(log2(amax / 448)).
 *   X_q[m, k]        = e4m3( min(max(X[m, k] / s, -448), 448) )   (IEEE division by s, not a multiply
 *                      by 1/s; cast rounds to nearest even, saturating)
 *   scales[m, kb]    = s    (a multiplier: X ~= X_q * s, blockfp8_gemm's a_scale convention)
 * Non-finite inputs follow the same formula (fmaxf ignores a NaN in amax; a NaN element gives -448
 * as fminf(fmaxf(NaN, -448), 448) does in vLLM's CUDA kernel); they carry no meaning.
 *
 * Layouts: X element (m, k) at x[m * ldx + k] (elements of x_dtype); X_q at x_q[m * ldq + k] (bytes);
 * scales element (m, kb) at scales[m * scale_stride_m + kb * scale_stride_k]: row-major (K/128, 1)
 * or column-major (1, M) (what DeepGEMM-style GEMMs read), both accepted by blockfp8_gemm as a_scale.
 *
 * Contract: M >= 0 (M == 0 is a no-op; pointers may then be NULL), K a positive multiple of 128,
 * both below 2^31; ldx >= K, ldq >= K; scale strides > 0 along any dimension of extent > 1 and not
 * aliasing (an output cannot broadcast); x aligned to its element size, scales to 4 bytes (x_q: any);
 * no two of x, x_q, scales overlap. Unaligned or odd-strided tensors are served by a slower path.
 * Same rules as the GEMM otherwise: device pointers, no allocation, no sync, graph-capturable,
 * deterministic.
 * ------------------------------------------------------------------------------------------------ */

typedef enum blockfp8_scale_format {
  BLOCKFP8_SCALE_FP32 = 0, /* s = amax / 448 */
  BLOCKFP8_SCALE_UE8M0 = 1 /* s = 2^ceil(log2(amax / 448)), stored as fp32 */
} blockfp8_scale_format_t;

BLOCKFP8_API blockfp8_status_t blockfp8_quantize_1x128(
    int64_t m, int64_t k,
    const void* x, int64_t ldx, blockfp8_dtype_t x_dtype,
    void* x_q, int64_t ldq,
    float* scales, int64_t scale_stride_m, int64_t scale_stride_k,
    blockfp8_scale_format_t fmt,
    cudaStream_t stream);

/* ------------------------------------------------------------------------------------------------
 * The GEMM from unquantised activations: C = blockfp8_gemm(quantize_1x128(X), B), one launch where
 * it can. X (M x K, x_dtype; element (m, k) at x[m * ldx + k]) is quantised exactly as
 * blockfp8_quantize_1x128 does with `fmt`, and the result is bitwise identical to calling
 * blockfp8_quantize_1x128 (row-major scales) and then blockfp8_gemm on its output.
 *
 * One launch (the decode kernel quantises the K slice each CTA needs into shared memory) where the
 * dispatcher runs a decode kernel for (M, N, K) with one token tile, X is bf16, 16-byte aligned with
 * ldx % 8 == 0, and a CTA's slice of X is small enough that quantising it in the kernel measured
 * cheaper than a second launch: on the TMA decode kernel M x (k-blocks per CTA) <= 40, on the warp-MMA
 * one a single pass of loads a thread and at most one such pass an SM (on an H200: M = 1 on
 * N = 2112, K = 7168; M <= 2 on N = 576, K = 7168).
 * Otherwise it quantises into `workspace` and runs the GEMM: two launches. The quantiser of the two
 * launches goes out with programmatic dependent launch at M <= 256 (measured faster there), asking for
 * shared memory it does not use so that its CTAs spread over the SMs: its CTAs may start while the
 * preceding kernel in the stream finishes, but every one waits for that kernel before it reads X or
 * touches the workspace, so the stream order is as always.
 * blockfp8_gemm_bf16a_workspace_size says how many workspace bytes a call needs (0 when the one-launch
 * path serves it; a larger workspace is always accepted). A workspace that is needed and missing or
 * too small gives BLOCKFP8_ERROR_INVALID_VALUE, without touching anything.
 *
 * Contract: the GEMM's for B, b_scale, C and the shapes; the quantiser's for X; the workspace, when
 * given, is 16-byte aligned (else BLOCKFP8_ERROR_MISALIGNED) and overlaps no other argument. Same rules otherwise (no allocation, no sync,
 * graph-capturable, deterministic).
 * ------------------------------------------------------------------------------------------------ */
BLOCKFP8_API blockfp8_status_t blockfp8_gemm_bf16a(
    int64_t m, int64_t n, int64_t k,
    const void* x, int64_t ldx, blockfp8_dtype_t x_dtype,
    const void* b, int64_t ldb,
    const float* b_scale, int64_t b_scale_stride_n, int64_t b_scale_stride_k,
    void* c, int64_t ldc, blockfp8_dtype_t c_dtype,
    blockfp8_scale_format_t fmt,
    void* workspace, size_t workspace_bytes,
    cudaStream_t stream);

/* Workspace bytes blockfp8_gemm_bf16a needs for these arguments on the current device (the pointers
   and leading dimensions matter only through their alignment). bytes == NULL: INVALID_VALUE. */
BLOCKFP8_API blockfp8_status_t blockfp8_gemm_bf16a_workspace_size(
    int64_t m, int64_t n, int64_t k, const void* x, int64_t ldx, blockfp8_dtype_t x_dtype,
    const void* b, int64_t ldb, size_t* bytes);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BLOCKFP8_BLOCKFP8_H_ */
