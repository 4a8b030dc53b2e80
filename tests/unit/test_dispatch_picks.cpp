// The dispatcher's pick at every point of the benchmark's DeepSeek set (TP 1, 2, 4, 8; the benchmark's
// M list, and 24, 33, 40, 48, 56 and 96, where the decode and tiled kernels take turns), on an H200 as
// DeviceInfo's defaults describe it, against the table in dispatch_picks.txt.
// A change of the dispatcher then shows as a diff of that table, point by point, which the change's
// measurements must cover. (When written, at 9a37d8d, it equalled the configurations the benchmark run
// on the device recorded in bench/results/latest.jsonl at all 434 points: the defaults are the H200's.) Regenerate it with BLOCKFP8_UPDATE_PICKS=1 ./blockfp8_api_tests
// --gtest_filter='DispatchPicks.*'. Host only.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>

#include "blockfp8/blockfp8.h"
#include "blockfp8/blockfp8.hpp"
#include "dispatch.h"
#include "shapes.h"

namespace {

using Point = std::tuple<int64_t, int64_t, int64_t>;  // N, K, M

constexpr int64_t kMs[] = {1, 2, 4, 8, 16, 24, 32, 33, 40, 48, 56, 64, 96, 128, 256, 512, 1024, 2048, 4096, 8192};

// What blockfp8_gemm would run (planned_config).
std::map<Point, std::string> picks() {
  const blockfp8::detail::DeviceInfo h200{};
  std::map<Point, std::string> out;
  for (const bench::Shape& s : bench::deepseek_shapes({1, 2, 4, 8}))
    for (int64_t m : kMs) out[{s.n, s.k, m}] = blockfp8::config_name(blockfp8::detail::planned_config(m, s.n, s.k, h200));
  return out;
}

std::map<Point, std::string> read_table(const char* path) {
  std::map<Point, std::string> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    int64_t n = 0, k = 0, m = 0;
    std::string name;
    if (fields >> n >> k >> m >> name) out[{n, k, m}] = name;
  }
  return out;
}

TEST(DispatchPicks, MatchTheCommittedTable) {
  const std::map<Point, std::string> now = picks();
  if (const char* update = std::getenv("BLOCKFP8_UPDATE_PICKS"); update && *update == '1') {
    std::ofstream out(BLOCKFP8_PICKS_FILE);
    out << "# N K M pick: the dispatcher's configuration at every point of the benchmark's DeepSeek set\n"
           "# (tests/unit/test_dispatch_picks.cpp; an H200 as DeviceInfo's defaults describe it)\n";
    for (const auto& [p, name] : now)
      out << std::get<0>(p) << ' ' << std::get<1>(p) << ' ' << std::get<2>(p) << ' ' << name << '\n';
    GTEST_SKIP() << "wrote " << BLOCKFP8_PICKS_FILE;
  }
  const std::map<Point, std::string> table = read_table(BLOCKFP8_PICKS_FILE);
  ASSERT_EQ(table.size(), now.size()) << BLOCKFP8_PICKS_FILE << " lists other points than the benchmark's set";
  int differ = 0;
  for (const auto& [p, name] : now) {
    const auto it = table.find(p);
    const std::string want = it == table.end() ? "(missing)" : it->second;
    if (want != name && ++differ <= 20)
      ADD_FAILURE() << std::get<0>(p) << "x" << std::get<1>(p) << " M=" << std::get<2>(p) << ": the table has "
                    << want << ", the dispatcher picks " << name;
  }
  EXPECT_EQ(differ, 0) << "picks differ from " << BLOCKFP8_PICKS_FILE
                       << "; if the change is meant and measured, regenerate it (BLOCKFP8_UPDATE_PICKS=1)";
}

}  // namespace
