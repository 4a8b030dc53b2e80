#include "quantize_reference.h"

#include <cmath>
#include <cstring>

#include "fp8.h"
#include "reference.h"

namespace bf8test {

float reference_group_scale(float amax, bool ue8m0) {
  const float eps = 1e-10f;  // vLLM's eps
  float s = std::fmax(amax, eps) / 448.0f;
  if (ue8m0) {
    s = std::fmax(s, 1e-10f);  // vLLM's floor before rounding up
    int e = 0;
    const float f = std::frexp(s, &e);  // s = f * 2^e, f in [0.5, 1)
    if (std::isfinite(s)) s = f == 0.5f ? s : std::ldexp(1.0f, e);
  }
  return s;
}

void reference_quantize_1x128(int64_t m, int64_t k, const void* x, int64_t ldx, blockfp8_dtype_t t, bool ue8m0,
                              std::vector<uint8_t>& q, std::vector<float>& scales) {
  const int64_t kb_count = k / 128;
  q.assign(size_t(m * k), 0);
  scales.assign(size_t(m * kb_count), 0.0f);
  auto load = [&](int64_t idx) -> float {
    if (t == BLOCKFP8_DTYPE_FP32) return static_cast<const float*>(x)[idx];
    const uint16_t h = static_cast<const uint16_t*>(x)[idx];
    return t == BLOCKFP8_DTYPE_BF16 ? bf16_to_float(h) : fp16_to_float(h);
  };
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t kb = 0; kb < kb_count; ++kb) {
      float v[128];
      float amax = 0.0f;
      for (int i = 0; i < 128; ++i) {
        v[i] = load(r * ldx + kb * 128 + i);
        amax = std::fmax(amax, std::fabs(v[i]));
      }
      const float s = reference_group_scale(amax, ue8m0);
      scales[size_t(r * kb_count + kb)] = s;
      for (int i = 0; i < 128; ++i) {
        const float y = std::fmin(std::fmax(v[i] / s, -448.0f), 448.0f);
        q[size_t(r * k + kb * 128 + i)] = float_to_e4m3(y);
      }
    }
  }
}

}  // namespace bf8test
