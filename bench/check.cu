#include <vector>

#include "check.h"
#include "common.h"

namespace bench {
namespace {

struct Stats {
  unsigned int max_diff_bits;  // non-negative floats order like their bit patterns
  unsigned int max_ref_bits;
  unsigned long long nan_count;
};

__global__ void compare_kernel(const uint16_t* c, int64_t ldc, const float* ref, int64_t m, int64_t n, Stats* out) {
  float max_diff = 0.f, max_ref = 0.f;
  unsigned long long nans = 0;
  const int64_t total = m * n;
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t t = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; t < total; t += stride) {
    const int64_t i = t / n, j = t % n;
    const float r = ref[t];
    const float v = __uint_as_float(uint32_t(c[i * ldc + j]) << 16);
    max_ref = fmaxf(max_ref, fabsf(r));
    if (isnan(v)) {
      ++nans;
    } else {
      const float d = fabsf(v - r);
      // fmaxf drops NaN; an infinite difference must survive, so compare explicitly.
      if (!(d <= max_diff)) max_diff = d;
    }
  }
  for (int o = 16; o > 0; o >>= 1) {
    max_diff = fmaxf(max_diff, __shfl_xor_sync(0xffffffffu, max_diff, o));
    max_ref = fmaxf(max_ref, __shfl_xor_sync(0xffffffffu, max_ref, o));
    nans += __shfl_xor_sync(0xffffffffu, nans, o);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicMax(&out->max_diff_bits, __float_as_uint(max_diff));
    atomicMax(&out->max_ref_bits, __float_as_uint(max_ref));
    atomicAdd(&out->nan_count, nans);
  }
}

unsigned grid_for(int64_t work) {
  const int64_t blocks = (work + 255) / 256;
  return unsigned(blocks < 1 ? 1 : (blocks > 4096 ? 4096 : blocks));
}

}  // namespace

void poison_bf16(void* c, int64_t ldc, int64_t m, int64_t n, cudaStream_t stream, uint8_t byte) {
  if (m <= 0) return;
  BENCH_CUDA(cudaMemset2DAsync(c, size_t(ldc) * 2, byte, size_t(n) * 2, size_t(m), stream));
}

CheckResult compare_bf16(const void* c, int64_t ldc, const float* ref, int64_t m, int64_t n, cudaStream_t stream) {
  static DeviceBuffer stats(sizeof(Stats));  // reused: the check runs between timings, never concurrently
  BENCH_CUDA(cudaMemsetAsync(stats.get(), 0, sizeof(Stats), stream));
  compare_kernel<<<grid_for(m * n), 256, 0, stream>>>(static_cast<const uint16_t*>(c), ldc, ref, m, n,
                                                      stats.get<Stats>());
  BENCH_CUDA(cudaGetLastError());
  Stats h{};
  BENCH_CUDA(cudaMemcpyAsync(&h, stats.get(), sizeof h, cudaMemcpyDeviceToHost, stream));
  BENCH_CUDA(cudaStreamSynchronize(stream));
  CheckResult r;
  unsigned int bits[2] = {h.max_diff_bits, h.max_ref_bits};
  float f[2];
  static_assert(sizeof f == sizeof bits, "float is 32-bit");
  __builtin_memcpy(f, bits, sizeof f);
  r.max_abs_err = f[0];
  r.max_ref = f[1];
  r.rel_err = r.max_ref > 0 ? r.max_abs_err / r.max_ref : r.max_abs_err;
  r.unwritten = h.nan_count;
  return r;
}

std::vector<uint16_t> fetch_bf16(const void* c, int64_t ldc, int64_t m, int64_t n, cudaStream_t stream) {
  std::vector<uint16_t> host(size_t(m) * size_t(n));
  if (host.empty()) return host;
  BENCH_CUDA(cudaMemcpy2DAsync(host.data(), size_t(n) * 2, c, size_t(ldc) * 2, size_t(n) * 2, size_t(m),
                               cudaMemcpyDeviceToHost, stream));
  BENCH_CUDA(cudaStreamSynchronize(stream));
  return host;
}

uint64_t hash_bf16(const void* c, int64_t ldc, int64_t m, int64_t n, cudaStream_t stream) {
  uint64_t h = 1469598103934665603ull;
  for (uint16_t v : fetch_bf16(c, ldc, m, n, stream)) {
    h = (h ^ (v & 0xFFu)) * 1099511628211ull;
    h = (h ^ (v >> 8)) * 1099511628211ull;
  }
  return h;
}

}  // namespace bench
