// Fresh random test data from a seeded, counter-based generator: value i of stream s is a pure
// function hash(s, i), so host loops and device kernels produce the same data for the same seed.
// The seed is new every run (random_device and the clock) unless BLOCKFP8_TEST_SEED is set; tests
// print it with every failure (SCOPED_TRACE) so a failing run can be replayed.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>

#include "fp8.h"

namespace bf8test {

// SplitMix64's finaliser: a bijective 64-bit mix.
BF8T_HD inline uint64_t mix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

BF8T_HD inline uint64_t random_u64(uint64_t seed, uint64_t i) { return mix64(mix64(seed) ^ i); }

// A sub-stream, e.g. one per tensor.
inline uint64_t derive_seed(uint64_t seed, uint64_t stream) { return mix64(seed ^ mix64(stream * 0x632be59bd9b4e019ull)); }

// Uniform over the 254 non-NaN e4m3 codes: zeros, subnormals, every exponent up to +-448.
BF8T_HD inline uint8_t random_e4m3(uint64_t seed, uint64_t i) {
  const uint32_t r = uint32_t(random_u64(seed, i) % 254u);  // 0..253
  return uint8_t(r < 0x7f ? r : r + 1);                      // skip 0x7f; 0xff is never reached
}

// Uniform in [0, 1).
BF8T_HD inline double random_unit(uint64_t seed, uint64_t i) { return double(random_u64(seed, i) >> 11) * 0x1p-53; }

// Log-uniform in [2^lo_log2, 2^hi_log2]: a positive scale.
inline float random_scale(uint64_t seed, uint64_t i, double lo_log2, double hi_log2) {
  return float(std::exp2(lo_log2 + random_unit(seed, i) * (hi_log2 - lo_log2)));
}

// A new seed per process, or BLOCKFP8_TEST_SEED (decimal or 0x-hex) to replay one.
inline uint64_t test_seed() {
  static const uint64_t seed = [] {
    if (const char* env = std::getenv("BLOCKFP8_TEST_SEED")) return uint64_t(std::strtoull(env, nullptr, 0));
    std::random_device rd;
    const uint64_t t = uint64_t(std::chrono::high_resolution_clock::now().time_since_epoch().count());
    return mix64((uint64_t(rd()) << 32) ^ rd() ^ t);
  }();
  return seed;
}

}  // namespace bf8test
