// Host-side launchers of the kernel families, one per file in src/kernels/.
// Each takes a validated Problem and a checked configuration, and only enqueues work on `stream`.
#pragma once

#include <cuda_runtime_api.h>

#include "dispatch.h"
#include "problem.h"

namespace blockfp8::detail {

// src/kernels/swapab_splitk.cu — decode (small M): Cᵀ = B·Aᵀ, K split over a thread-block cluster,
// persistent over as many clusters as `dev` holds at once.
blockfp8_status_t launch_swapab_splitk(const Problem& p, const blockfp8_config_t& cfg, const DeviceInfo& dev,
                                       cudaStream_t stream);
// The same kernel with the A side fused (blockfp8_gemm_bf16a): each CTA quantises its K slice of X
// (x.x [M][x.ldx], M <= cfg.token_tile <= 32) into shared memory once, while its weight stream starts,
// and keeps it for every tile, with cfg's schedule on a ring of `stages` weight-only stages: the same
// sums in the same order as blockfp8_quantize_1x128 followed by launch_swapab_splitk with cfg. p.a
// and p.a_scale are unused.
blockfp8_status_t launch_swapab_fused(const Problem& p, const FusedA& x, const blockfp8_config_t& cfg, int stages,
                                      const DeviceInfo& dev, cudaStream_t stream);
// Clusters of `split` decode CTAs (each holding `smem_bytes`) the current device can hold at once.
int swapab_max_active_clusters(int split, int smem_bytes);
// Decode CTAs (token tile, warpgroups) one SM of the current device holds by registers and threads.
int swapab_reg_ctas(int token_tile, int warpgroups);

// src/kernels/tiled_gemm.cu — prefill (large M): 128-token x weight_rows tiles, tokens on wgmma M,
// persistent warp-specialised CTAs, one per SM of `dev`.
blockfp8_status_t launch_tiled_gemm(const Problem& p, const blockfp8_config_t& cfg, const DeviceInfo& dev,
                                    cudaStream_t stream);

// src/kernels/swapab_warpmma.cu — decode at a few tokens: weight strips through per-thread cp.async
// rings, warp-level fp8 MMA, the K split (if any) over a cluster. No persistent grid: one CTA a strip.
blockfp8_status_t launch_swapab_warpmma(const Problem& p, const blockfp8_config_t& cfg, const DeviceInfo& dev,
                                        cudaStream_t stream);
// The same kernel with the A side fused (blockfp8_gemm_bf16a): each CTA quantises its token tile's K
// slice of X (x.x [M][x.ldx], M <= 8) into shared memory, as blockfp8_quantize_1x128 would, while its
// weight copies are in flight: the same bits as the quantiser then launch_swapab_warpmma with cfg
// (warpmma_fused_ok(cfg) must hold). p.a and p.a_scale are unused.
blockfp8_status_t launch_swapab_warpmma_fused(const Problem& p, const FusedA& x, const blockfp8_config_t& cfg,
                                              const DeviceInfo& dev, cudaStream_t stream);

// src/kernels/simt_gemm.cu — CUDA cores, any alignment: the fallback and a second opinion.
blockfp8_status_t launch_simt_gemm(const Problem& p, cudaStream_t stream);

// src/kernels/quantize_1x128.cu — the activation quantiser (blockfp8_quantize_1x128), memory-bound.
// pdl: launched with programmatic dependent launch (where pdl_enabled), so that its CTAs may be
// resident before the preceding kernel ends (bf16a_quantizer_pdl); otherwise a plain launch.
// spread_over: if given, each CTA asks for shared memory it does not use, so that an SM of that device
// holds no more than bf16a_quantizer_ctas_per_sm of them and the grid spreads over all its SMs.
blockfp8_status_t launch_quantize_1x128(const QuantizeProblem& q, cudaStream_t stream, bool pdl = false,
                                        const DeviceInfo* spread_over = nullptr);

}  // namespace blockfp8::detail
