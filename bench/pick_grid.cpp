// blockfp8-pick-grid: the dispatcher's configuration at every point of an (N, K) x M grid, on an H200 as
// DeviceInfo's defaults describe it (no GPU needed). One line a point, "N K M name", the name as
// blockfp8_config_name writes it, so that `blockfp8-bench --config NAME` forces it.
//
// Its use: build a dispatcher variant, print its grid, diff it against main's: the diff is every point
// the change moves, before any device time is spent. tools/dispatch_variants.py turns several such
// grids into the forced runs that compare them, and reads the runs back.
//
//   blockfp8-pick-grid [--shape N,K]... [--m LIST] > picks.txt
// Defaults: the benchmark's DeepSeek set at TP 1, 2, 4, 8, and M over 1-8192 finer than the benchmark's
// list where the kernels take turns (every 8 tokens to 64, every 16 or 32 to 512).
#include <cstdio>
#include <cstring>
#include <vector>

#include "blockfp8/blockfp8.hpp"
#include "dispatch.h"
#include "shapes.h"

namespace {

const std::vector<int64_t> kDefaultMs = {1,   2,   4,   8,   16,  24,  32,  33,  40,  48,  56,  64,  65,
                                         72,  80,  96,  112, 128, 129, 160, 192, 224, 256, 288, 320, 352,
                                         384, 416, 448, 480, 512, 640, 768, 1024, 2048, 4096, 8192};

int usage(const char* msg) {
  std::fprintf(stderr, "blockfp8-pick-grid: %s\nusage: blockfp8-pick-grid [--shape N,K]... [--m LIST]\n", msg);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<bench::Shape> shapes;
  std::vector<int64_t> ms = kDefaultMs;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--shape") && has_value) {
      bench::Shape s;
      if (!bench::parse_shape(argv[++i], &s)) return usage("bad --shape (N,K with K a multiple of 128)");
      bench::add_shape(shapes, s);
    } else if (!std::strcmp(argv[i], "--m") && has_value) {
      if (!bench::parse_int_list(argv[++i], &ms)) return usage("bad --m list");
    } else {
      return usage(argv[i]);
    }
  }
  if (shapes.empty()) shapes = bench::deepseek_shapes({1, 2, 4, 8});
  const blockfp8::detail::DeviceInfo h200{};
  for (const bench::Shape& s : shapes)
    for (int64_t m : ms) {
      const blockfp8_config_t c = blockfp8::detail::planned_config(m, s.n, s.k, h200);
      std::printf("%lld %lld %lld %s\n", static_cast<long long>(s.n), static_cast<long long>(s.k),
                  static_cast<long long>(m), blockfp8::config_name(c).c_str());
    }
  return 0;
}
