// Probe: how fast a CTA reads or writes its cluster peers' shared memory (distributed shared memory),
// the path of every split-K sum in blockfp8 (the tiled kernel's, the decode kernel's pulled and owner's
// sums). As many clusters of C as the device holds at once (with small slices several CTAs share an SM:
// compare the totals then); each CTA owns a `slice` of S bytes and moves the C - 1 other ranks' slices,
// R times:
//   ld     pulls them by ld.shared::cluster.v4 (16 bytes a thread, 8 loads in flight a thread), as the
//          tiled kernel's sum does
//   ld1    the same bytes from one peer only (rank + 1), C - 1 times: one link, not the whole cluster
//   bulk   pushes its slice into each other rank's inbox by cp.async.bulk (the copy engine), the
//          receiver counting the bytes on an mbarrier
//   local  reads its own slice (C - 1) times by ld.shared.v4: the SM's own shared-memory rate
// and prints the median over CTAs of bytes a CTA moved per microsecond (GB/s an SM) and the sum over
// all CTAs (TB/s), from %globaltimer around the loop (a cluster barrier before and after).
//   Usage: dsmem_rate [slice KB, default 24] [repeats, default 64]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kernels/ptx.cuh"
#include "probe_check.h"

namespace ptx = blockfp8::ptx;

namespace {

enum Mode { kLd, kLd1, kBulk, kLocal };
constexpr int kThreads = 256, kInFlight = 8;

__device__ __forceinline__ uint64_t now_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ void bulk_push(uint32_t dst, const void* src, uint32_t bytes, uint32_t bar) {
  asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
               "r"(ptx::smem_addr(src)), "r"(bytes), "r"(bar)
               : "memory");
}

// Shared memory: [slice S][inbox (C - 1) x S][mbarrier]. out[cta] = {ns, bytes, checksum bits}.
template <int kMode>
__global__ void __launch_bounds__(kThreads, 1) dsmem_kernel(int slice, int repeats, unsigned long long* out) {
  extern __shared__ __align__(1024) uint8_t smem[];
  uint32_t rank, ctas;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(ctas));
  uint8_t* mine = smem;
  uint8_t* inbox = smem + slice;
  uint64_t* bar = reinterpret_cast<uint64_t*>(inbox + (ctas - 1) * slice);
  for (int i = threadIdx.x; i < slice / 4; i += kThreads)
    reinterpret_cast<float*>(mine)[i] = float(i % 1000) * 1e-3f + float(rank);
  if (threadIdx.x == 0) {
    ptx::mbar_init(bar, 1);
    ptx::fence_barrier_init();
  }
  ptx::cluster_arrive();
  ptx::cluster_wait();
  const uint64_t t0 = now_ns();
  float acc = 0.f;
  const int vecs = slice / 16;
  for (int rep = 0; rep < repeats; ++rep) {
    if constexpr (kMode == kBulk) {
      // Arm this rank's inbox, then tell the others it is free (the previous round was read).
      if (threadIdx.x == 0) ptx::mbar_arrive_expect_tx(bar, uint32_t((ctas - 1) * slice));
      ptx::cluster_arrive();
      ptx::cluster_wait();
      // One lane a peer pushes this slice into the peer's inbox at this rank's place there, in 4 KB pieces.
      if (threadIdx.x < ctas - 1) {
        const uint32_t peer = (rank + 1 + threadIdx.x) % ctas;
        const uint32_t place = (rank - (rank > peer)) * uint32_t(slice);
        const uint32_t dst = ptx::map_to_rank(inbox + place, peer), remote_bar = ptx::map_to_rank(bar, peer);
        for (int off = 0; off < slice; off += 4096)
          bulk_push(dst + off, mine + off, uint32_t(min(4096, slice - off)), remote_bar);
      }
      ptx::mbar_wait_acquire_cluster(bar, rep & 1);
      acc += reinterpret_cast<const float*>(inbox)[threadIdx.x];
    } else {
      for (uint32_t r = 1; r < ctas; ++r) {
        const uint32_t peer = kMode == kLd1 ? (rank + 1) % ctas : (rank + r) % ctas;
        const uint32_t base = ptx::map_to_rank(mine, peer);
        for (int v = threadIdx.x; v < vecs; v += kThreads * kInFlight) {
          float4 x[kInFlight];
#pragma unroll
          for (int u = 0; u < kInFlight; ++u) {
            const int at = v + u * kThreads;
            if (at < vecs) {
              if constexpr (kMode == kLocal) x[u] = reinterpret_cast<const float4*>(mine)[at];
              else x[u] = ptx::ld_cluster_f4(base + at * 16);
            } else {
              x[u] = make_float4(0.f, 0.f, 0.f, 0.f);
            }
          }
#pragma unroll
          for (int u = 0; u < kInFlight; ++u) acc += x[u].x + x[u].y + x[u].z + x[u].w;
        }
      }
    }
  }
  __syncthreads();
  const uint64_t t1 = now_ns();
  ptx::cluster_arrive();  // no rank leaves while another still reads or writes its memory
  ptx::cluster_wait();
  if (threadIdx.x == 0) {
    const unsigned cta = blockIdx.x;
    out[3 * cta] = t1 - t0;
    out[3 * cta + 1] = (unsigned long long)repeats * (ctas - 1) * slice;
    out[3 * cta + 2] = __float_as_uint(acc);
  }
}

template <int kMode>
void run(const char* name, int cluster, int slice, int repeats) {
  const int smem = slice * cluster + 64;
  CUDA_CHECK(cudaFuncSetAttribute(dsmem_kernel<kMode>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  CUDA_CHECK(cudaFuncSetAttribute(dsmem_kernel<kMode>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = unsigned(cluster), attr[0].val.clusterDim.y = 1, attr[0].val.clusterDim.z = 1;
  cudaLaunchConfig_t lc{};
  lc.blockDim = dim3(kThreads), lc.dynamicSmemBytes = size_t(smem), lc.attrs = attr, lc.numAttrs = 1;
  lc.gridDim = dim3(unsigned(cluster * 64));
  int clusters = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, dsmem_kernel<kMode>, &lc));
  lc.gridDim = dim3(unsigned(clusters * cluster));
  const int ctas = clusters * cluster;
  unsigned long long* out = nullptr;
  CUDA_CHECK(cudaMalloc(&out, sizeof(unsigned long long) * 3 * ctas));
  for (int warm = 0; warm < 2; ++warm) CUDA_CHECK(cudaLaunchKernelEx(&lc, dsmem_kernel<kMode>, slice, repeats, out));
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<unsigned long long> h(size_t(3) * ctas);
  CUDA_CHECK(cudaMemcpy(h.data(), out, sizeof(unsigned long long) * h.size(), cudaMemcpyDeviceToHost));
  std::vector<double> rate(ctas);
  double total_bytes = 0, longest = 0;
  for (int c = 0; c < ctas; ++c) {
    rate[c] = double(h[3 * c + 1]) / double(h[3 * c]);  // bytes per ns = GB/s
    total_bytes += double(h[3 * c + 1]);
    longest = std::max(longest, double(h[3 * c]));
  }
  std::sort(rate.begin(), rate.end());
  std::printf("| %-5s | %d | %3d | %5.1f | %5.1f | %5.1f | %6.2f |\n", name, cluster, ctas, rate[0], rate[ctas / 2],
              rate[ctas - 1], total_bytes / longest * 1e-3);
  CUDA_CHECK(cudaFree(out));
}

}  // namespace

int main(int argc, char** argv) {
  const int slice = (argc > 1 ? std::atoi(argv[1]) : 24) * 1024;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 64;
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("dsmem_rate: %s, %d SMs, slice %d KB, %d repeats; GB/s an SM (min, median, max over CTAs), all CTAs TB/s\n\n",
              prop.name, prop.multiProcessorCount, slice / 1024, repeats);
  std::printf("| mode | cluster | CTAs | min | median | max | total TB/s |\n|---|---:|---:|---:|---:|---:|---:|\n");
  for (int cluster : {2, 4, 8}) {
    if (slice * cluster + 64 > int(prop.sharedMemPerBlockOptin)) continue;
    run<kLd>("ld", cluster, slice, repeats);
    run<kLd1>("ld1", cluster, slice, repeats);
    run<kBulk>("bulk", cluster, slice, repeats);
    run<kLocal>("local", cluster, slice, repeats);
  }
  return 0;
}
