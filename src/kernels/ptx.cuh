// The few Hopper PTX instructions blockfp8's kernels use, each behind a one-line device function:
// mbarrier, TMA (cp.async.bulk.tensor), wgmma (fp8), and
// cluster / distributed shared memory. Only what the kernels need; every wrapper is sm_90a.
#pragma once

#include <cstdint>
#include <cuda.h>  // CUtensorMap

namespace blockfp8::ptx {

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// The dynamic shared memory base rounded up to 1024 bytes (128-byte swizzle atoms need it). It is
// `raw` plus an offset, not a pointer rebuilt from an integer: rebuilt, it is a generic pointer, and
// every shared access derived from it compiled to a generic LD.E / ST.E with 64-bit address math.
__device__ __forceinline__ uint8_t* align_smem_1024(uint8_t* raw) {
  return raw + ((1024u - (smem_addr(raw) & 1023u)) & 1023u);
}

// ---------------------------------------------------------------------------------------------
// mbarrier: a shared-memory barrier that counts thread arrivals and TMA bytes (transaction count).
__device__ __forceinline__ void mbar_init(uint64_t* bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count));
}
// Make barrier initialisation visible to the cluster (remote arrivals) and to the async proxy: the
// barriers are written by generic-proxy stores and the TMA engine completes transactions on them
// (the CUDA programming guide's TMA example fences the same way).
__device__ __forceinline__ void fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
__device__ __forceinline__ void mbar_arrive_expect_tx(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(bar)) : "memory");
}
// Spin until the phase with the given parity has completed.
__device__ __forceinline__ void mbar_wait(uint64_t* bar, uint32_t parity) {
  asm volatile(
      "{\n"
      ".reg .pred done;\n"
      "WAIT_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra WAIT_%=;\n"
      "}\n" ::"r"(smem_addr(bar)),
      "r"(parity)
      : "memory");
}

// ---------------------------------------------------------------------------------------------
// TMA: a 2-D tile from global to shared memory, completing on an mbarrier, with an L2 hint.
__device__ __forceinline__ void tma_load_2d(void* dst, const CUtensorMap* map, uint64_t* bar, int32_t x,
                                            int32_t y, uint64_t l2_policy) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
      " [%0], [%1, {%3, %4}], [%2], %5;" ::"r"(smem_addr(dst)),
      "l"(map), "r"(smem_addr(bar)), "r"(x), "r"(y), "l"(l2_policy)
      : "memory");
}
// A 3-D tile: the decode kernel views a [rows][K] matrix as [k-blocks][rows][128 B] and fetches
// several k-blocks of a tile in one box.
__device__ __forceinline__ void tma_load_3d(void* dst, const CUtensorMap* map, uint64_t* bar, int32_t x,
                                            int32_t y, int32_t z, uint64_t l2_policy) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
      " [%0], [%1, {%3, %4, %5}], [%2], %6;" ::"r"(smem_addr(dst)),
      "l"(map), "r"(smem_addr(bar)), "r"(x), "r"(y), "r"(z), "l"(l2_policy)
      : "memory");
}
__device__ __forceinline__ void prefetch_tensormap(const CUtensorMap* map) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(map) : "memory");
}
// L2 policies: the weight is read once per call (evict first); activations are re-read by every
// CTA of a row of tiles (evict last).
__device__ __forceinline__ uint64_t l2_evict_first() {
  uint64_t p;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
  return p;
}
__device__ __forceinline__ uint64_t l2_evict_last() {
  uint64_t p;
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p));
  return p;
}

// ---------------------------------------------------------------------------------------------
// wgmma: shared-memory matrix descriptors (K-major, 128-byte swizzle) and the fp8 MMA.
//
// Both kernels move K in k-blocks of 128 fp8 values: one 128-byte row of a swizzle atom per operand row.
constexpr int kKBlockBytes = 128;
//
// A K-major operand tile of R rows x 128 bytes, written by TMA with SWIZZLE_128B, is a stack of
// 8-row x 128-byte swizzle atoms 1024 bytes apart (the stride byte offset). One k32 step of fp8 is
// 32 bytes of each row: it starts 32 bytes further into the atom, and the hardware applies the
// swizzle to the full address, so advancing the start address is all a k-step needs.
__device__ __forceinline__ uint64_t wgmma_desc_k128_sw128(const void* tile) {
  const uint64_t addr = smem_addr(tile);
  uint64_t desc = 0;
  desc |= (addr & 0x3FFFF) >> 4;          // start address, 16-byte units
  desc |= uint64_t(1) << 16;              // leading byte offset: unused for swizzled K-major
  desc |= uint64_t(1024 >> 4) << 32;      // stride byte offset: next 8-row atom
  desc |= uint64_t(1) << 62;              // layout: 128-byte swizzle
  return desc;
}
// Advance a descriptor's start address by `bytes` (a multiple of 16).
__device__ __forceinline__ uint64_t desc_advance(uint64_t desc, uint32_t bytes) { return desc + (bytes >> 4); }

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}
// Keep the compiler from moving accumulator reads/writes across an in-flight wgmma.
template <int N>
__device__ __forceinline__ void fence_regs(float (&d)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// D[64 x N] (+)= A[64 x 32] * B[N x 32]^T, fp8 e4m3 inputs, fp32 accumulators: N/2 per thread.
template <int N>
struct WgmmaE4M3;

#define BLOCKFP8_R4(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3])
#define BLOCKFP8_R16(i) BLOCKFP8_R4(i), BLOCKFP8_R4(i + 4), BLOCKFP8_R4(i + 8), BLOCKFP8_R4(i + 12)

template <>
struct WgmmaE4M3<8> {
  __device__ __forceinline__ static void mma(float (&d)[4], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 {%0,%1,%2,%3}, %4, %5, p, 1, 1;\n}\n"
        : BLOCKFP8_R4(0)
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <>
struct WgmmaE4M3<16> {
  __device__ __forceinline__ static void mma(float (&d)[8], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n16k32.f32.e4m3.e4m3 {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, p, 1, 1;\n}\n"
        : BLOCKFP8_R4(0), BLOCKFP8_R4(4)
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <>
struct WgmmaE4M3<32> {
  __device__ __forceinline__ static void mma(float (&d)[16], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %18, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n32k32.f32.e4m3.e4m3 "
        "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}, %16, %17, p, 1, 1;\n}\n"
        : BLOCKFP8_R16(0)
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <>
struct WgmmaE4M3<64> {
  __device__ __forceinline__ static void mma(float (&d)[32], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 "
        "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, p, 1, 1;\n}\n"
        : BLOCKFP8_R16(0), BLOCKFP8_R16(16)
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <>
struct WgmmaE4M3<128> {
  __device__ __forceinline__ static void mma(float (&d)[64], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 "
        "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
        "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
        "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63}, %64, %65, p, 1, 1;\n}\n"
        : BLOCKFP8_R16(0), BLOCKFP8_R16(16), BLOCKFP8_R16(32), BLOCKFP8_R16(48)
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
#undef BLOCKFP8_R16
#undef BLOCKFP8_R4

// ---------------------------------------------------------------------------------------------
// Clusters and distributed shared memory.
// A cluster barrier in two halves, for threads that have other work between them: arrive releases
// our shared-memory writes, wait acquires the other CTAs'. Every thread of the cluster must
// alternate arrive and wait.
__device__ __forceinline__ void cluster_arrive() { asm volatile("barrier.cluster.arrive.release;" ::: "memory"); }
__device__ __forceinline__ void cluster_wait() { asm volatile("barrier.cluster.wait.acquire;" ::: "memory"); }
// An arrival that publishes nothing: it does not wait for this thread's earlier writes (global stores
// included) to become visible, only marks the thread as past this point.
__device__ __forceinline__ void cluster_arrive_relaxed() {
  asm volatile("barrier.cluster.arrive.relaxed;" ::: "memory");
}
// The shared::cluster address of the same variable in CTA `rank` of this cluster.
__device__ __forceinline__ uint32_t map_to_rank(const void* p, uint32_t rank) {
  uint32_t out;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(out) : "r"(smem_addr(p)), "r"(rank));
  return out;
}
__device__ __forceinline__ float4 ld_cluster_f4(uint32_t addr) {
  float4 v;
  asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "r"(addr)
               : "memory");
  return v;
}

// A 16-byte store into the shared memory of another CTA of the cluster (addr from map_to_rank) that,
// once landed, completes its bytes on that CTA's mbarrier (bar, mapped the same way), released at
// cluster scope: the receiver learns of the data by waiting on its own barrier
// (mbar_wait_acquire_cluster). Undefined within a one-CTA cluster.
__device__ __forceinline__ void st_async_f4(uint32_t addr, float4 v, uint32_t bar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%0], {%1, %2, %3, %4}, [%5];" ::"r"(addr),
               "r"(__float_as_uint(v.x)), "r"(__float_as_uint(v.y)), "r"(__float_as_uint(v.z)),
               "r"(__float_as_uint(v.w)), "r"(bar)
               : "memory");
}
// mbar_wait that acquires at cluster scope what other CTAs released on the barrier (st_async_f4 bytes).
__device__ __forceinline__ void mbar_wait_acquire_cluster(uint64_t* bar, uint32_t parity) {
  asm volatile(
      "{\n"
      ".reg .pred done;\n"
      "WAIT_%=:\n"
      "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra WAIT_%=;\n"
      "}\n" ::"r"(smem_addr(bar)),
      "r"(parity)
      : "memory");
}

// A barrier among the first `threads` threads of the CTA (named barrier `id`, 1..15).
__device__ __forceinline__ void named_barrier(uint32_t id, uint32_t threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
// Arrive on named barrier `id` without waiting: the signalling half of a producer/consumer pair
// whose other side calls named_barrier(id, threads) (threads counts both sides).
__device__ __forceinline__ void named_barrier_arrive(uint32_t id, uint32_t threads) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

// =============================================================================================
// Tiled (prefill) kernel: src/kernels/tiled_gemm.cu. Everything below is used only by that kernel.
// =============================================================================================

// Warp-specialised register split: the producer warpgroup gives registers back, the math
// warpgroups take them. Every warp of the warpgroup executes the same instruction.
template <int kRegs>
__device__ __forceinline__ void setmaxnreg_inc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(kRegs));
}
template <int kRegs>
__device__ __forceinline__ void setmaxnreg_dec() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(kRegs));
}

// TMA multicast: the box lands at dst's offset in the shared memory of every CTA of `cta_mask` (bit r:
// cluster rank r) and completes the mbarrier at bar's offset in each of them.
__device__ __forceinline__ void tma_load_2d_multicast(void* dst, const CUtensorMap* map, uint64_t* bar, int32_t x,
                                                      int32_t y, uint16_t cta_mask, uint64_t l2_policy) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
      ".L2::cache_hint [%0], [%1, {%3, %4}], [%2], %5, %6;" ::"r"(smem_addr(dst)),
      "l"(map), "r"(smem_addr(bar)), "r"(x), "r"(y), "h"(cta_mask), "l"(l2_policy)
      : "memory");
}
// An arrival on another CTA's mbarrier (addr from map_to_rank), with the default .release.cta: what it
// orders is this thread's reads of its own CTA's shared memory, before the other CTA's TMA overwrites
// it. Cluster scope (.release.cluster) compiled to MEMBAR.ALL.GPU per arrival, and a cluster-scope
// acquire on the waiting side to an L1 invalidation (CCTL.IVALL) per wait: 1.4-2.2x the time.
__device__ __forceinline__ void mbar_arrive_cluster(uint32_t addr) {
  asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];" ::"r"(addr) : "memory");
}

// A 4-byte global -> shared copy on the cp.async path; `valid == false` writes 0 and reads nothing.
__device__ __forceinline__ void cp_async_4(void* dst, const void* src, bool valid) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(smem_addr(dst)), "l"(src),
               "r"(valid ? 4u : 0u)
               : "memory");
}
// One arrival on `bar` once this thread's earlier cp.async copies have landed. `noinc`: the
// arrival is one of the counts the barrier was initialised with.
__device__ __forceinline__ void cp_async_mbar_arrive_noinc(uint64_t* bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(smem_addr(bar)) : "memory");
}

__device__ __forceinline__ uint64_t l2_evict_normal() {
  uint64_t p;
  asm volatile("createpolicy.fractional.L2::evict_normal.b64 %0, 1.0;" : "=l"(p));
  return p;
}

// TMA store of a 2-D box from shared memory; out-of-bounds parts of the box are not written.
__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, const void* src, int32_t x, int32_t y) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];" ::"l"(map),
               "r"(smem_addr(src)), "r"(x), "r"(y)
               : "memory");
}
__device__ __forceinline__ void bulk_commit_group() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
// Wait until at most N committed bulk groups of this thread still read their shared-memory source.
template <int N>
__device__ __forceinline__ void bulk_wait_group_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
}
template <int N>
__device__ __forceinline__ void bulk_wait_group() {
  asm volatile("cp.async.bulk.wait_group %0;" ::"n"(N) : "memory");
}
// Order this thread's generic-proxy shared-memory writes before later async-proxy (TMA) reads.
__device__ __forceinline__ void fence_proxy_async_shared() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// Programmatic dependent launch (PDL). launch_dependents: the next kernel in the stream (when
// launched with the PDL attribute) may start once every CTA of this grid has said so or exited.
// grid_dependency_wait: block until the grids this one depends on have completed and their memory
// is visible; a no-op when the kernel was not launched with the attribute.
__device__ __forceinline__ void launch_dependents() { asm volatile("griddepcontrol.launch_dependents;" ::: "memory"); }
__device__ __forceinline__ void grid_dependency_wait() { asm volatile("griddepcontrol.wait;" ::: "memory"); }

// wgmma m64nNk32 e4m3 for the tiled kernel's weight tiles (N = weight rows per tile) that the
// specialisations above do not cover.
#define BLOCKFP8_TILED_R8(i)                                                                          \
  "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), \
      "+f"(d[i + 7])
template <>
struct WgmmaE4M3<80> {
  __device__ __forceinline__ static void mma(float (&d)[40], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %42, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n80k32.f32.e4m3.e4m3 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
        "%32,%33,%34,%35,%36,%37,%38,%39}, %40, %41, p, 1, 1;\n}\n"
        : BLOCKFP8_TILED_R8(0), BLOCKFP8_TILED_R8(8), BLOCKFP8_TILED_R8(16), BLOCKFP8_TILED_R8(24), BLOCKFP8_TILED_R8(32)
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <>
struct WgmmaE4M3<96> {
  __device__ __forceinline__ static void mma(float (&d)[48], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %50, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n96k32.f32.e4m3.e4m3 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
        "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47}, %48, %49, p, 1, 1;\n}\n"
        : BLOCKFP8_TILED_R8(0), BLOCKFP8_TILED_R8(8), BLOCKFP8_TILED_R8(16), BLOCKFP8_TILED_R8(24), BLOCKFP8_TILED_R8(32), BLOCKFP8_TILED_R8(40)
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <>
struct WgmmaE4M3<112> {
  __device__ __forceinline__ static void mma(float (&d)[56], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %58, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n112k32.f32.e4m3.e4m3 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
        "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
        "%48,%49,%50,%51,%52,%53,%54,%55}, %56, %57, p, 1, 1;\n}\n"
        : BLOCKFP8_TILED_R8(0), BLOCKFP8_TILED_R8(8), BLOCKFP8_TILED_R8(16), BLOCKFP8_TILED_R8(24), BLOCKFP8_TILED_R8(32), BLOCKFP8_TILED_R8(40), BLOCKFP8_TILED_R8(48)
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <>
struct WgmmaE4M3<144> {
  __device__ __forceinline__ static void mma(float (&d)[72], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %74, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n144k32.f32.e4m3.e4m3 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
        "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
        "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,"
        "%64,%65,%66,%67,%68,%69,%70,%71}, %72, %73, p, 1, 1;\n}\n"
        : BLOCKFP8_TILED_R8(0), BLOCKFP8_TILED_R8(8), BLOCKFP8_TILED_R8(16), BLOCKFP8_TILED_R8(24), BLOCKFP8_TILED_R8(32), BLOCKFP8_TILED_R8(40), BLOCKFP8_TILED_R8(48), BLOCKFP8_TILED_R8(56), BLOCKFP8_TILED_R8(64)
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <>
struct WgmmaE4M3<160> {
  __device__ __forceinline__ static void mma(float (&d)[80], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %82, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n160k32.f32.e4m3.e4m3 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
        "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
        "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,"
        "%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79}, %80, %81, p, 1, 1;\n}\n"
        : BLOCKFP8_TILED_R8(0), BLOCKFP8_TILED_R8(8), BLOCKFP8_TILED_R8(16), BLOCKFP8_TILED_R8(24), BLOCKFP8_TILED_R8(32), BLOCKFP8_TILED_R8(40), BLOCKFP8_TILED_R8(48), BLOCKFP8_TILED_R8(56), BLOCKFP8_TILED_R8(64), BLOCKFP8_TILED_R8(72)
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <>
struct WgmmaE4M3<176> {
  __device__ __forceinline__ static void mma(float (&d)[88], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %90, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n176k32.f32.e4m3.e4m3 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
        "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
        "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,"
        "%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,"
        "%80,%81,%82,%83,%84,%85,%86,%87}, %88, %89, p, 1, 1;\n}\n"
        : BLOCKFP8_TILED_R8(0), BLOCKFP8_TILED_R8(8), BLOCKFP8_TILED_R8(16), BLOCKFP8_TILED_R8(24), BLOCKFP8_TILED_R8(32), BLOCKFP8_TILED_R8(40), BLOCKFP8_TILED_R8(48), BLOCKFP8_TILED_R8(56), BLOCKFP8_TILED_R8(64), BLOCKFP8_TILED_R8(72), BLOCKFP8_TILED_R8(80)
        : "l"(a), "l"(b), "r"(accumulate));
  }
};
template <>
struct WgmmaE4M3<192> {
  __device__ __forceinline__ static void mma(float (&d)[96], uint64_t a, uint64_t b, int accumulate) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %98, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n192k32.f32.e4m3.e4m3 {"
        "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
        "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
        "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,"
        "%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,"
        "%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95}, %96, %97, p, 1, 1;\n}\n"
        : BLOCKFP8_TILED_R8(0), BLOCKFP8_TILED_R8(8), BLOCKFP8_TILED_R8(16), BLOCKFP8_TILED_R8(24), BLOCKFP8_TILED_R8(32), BLOCKFP8_TILED_R8(40), BLOCKFP8_TILED_R8(48), BLOCKFP8_TILED_R8(56), BLOCKFP8_TILED_R8(64), BLOCKFP8_TILED_R8(72), BLOCKFP8_TILED_R8(80), BLOCKFP8_TILED_R8(88)
        : "l"(a), "l"(b), "r"(accumulate));
  }
};

#undef BLOCKFP8_TILED_R8

// =============================================================================================
// Warp-MMA decode kernel: src/kernels/swapab_warpmma.cu. Each thread's own cp.async ring and the
// warp-level fp8 MMA; no TMA, no mbarrier.
// =============================================================================================

// A 16-byte global -> shared copy on the cp.async path, not kept in L1 (.cg); the L2 fetches the
// whole 256-byte sector pair, which the neighbouring warp (the next k-block of the same rows) is
// about to ask for. `valid == false` writes zeros and reads nothing.
__device__ __forceinline__ void cp_async_16(uint32_t dst, const void* src, bool valid) {
  asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(valid ? 16u : 0u)
               : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
// Wait until at most N of this thread's committed cp.async groups are still in flight.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}

// d += A (16 x 32, row-major) * B (32 x 8, column-major), e4m3 in, fp32 accumulate. Fragments, with
// g = lane / 4 and t = lane % 4: a = {row g, k 4t..4t+3}, {row g+8, same k}, {row g, k 16+4t..},
// {row g+8, k 16+4t..}; b = {k 4t..4t+3, column g}, {k 16+4t.., column g}; d = {row g, columns 2t,
// 2t+1}, {row g+8, columns 2t, 2t+1}.
__device__ __forceinline__ void mma_m16n8k32_e4m3(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2,
                                                  uint32_t a3, uint32_t b0, uint32_t b1) {
  asm("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

__device__ __forceinline__ float ld_cluster_f32(uint32_t addr) {
  float v;
  asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(v) : "r"(addr) : "memory");
  return v;
}

}  // namespace blockfp8::ptx
