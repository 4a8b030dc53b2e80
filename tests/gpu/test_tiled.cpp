// GPU correctness of the tiled (prefill) kernel, forced through blockfp8_gemm_ex.
//
// Every case lays the problem out in a GemmArena (NaN in all padding of A, B and the scales, C
// poisoned with guard bands and row padding), runs each configuration twice on a poisoned C, and
// checks against the GPU reference: guards untouched, every element written, max|C - ref| / max|ref|
// within tolerance, the two runs bitwise identical. Covers M and N tails, every weight_rows width
// (tiles straddling 128-row b_scale blocks), both a_scale layouts, bf16 / fp16 / fp32 output, the
// TMA-store epilogue and the direct one (ldc or C not 16-byte aligned), shallow rings that wrap many
// times, and persistent CTAs that run many tiles.
//
//   build/tests/blockfp8_gpu_tests --gtest_filter='TiledTest.*'
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "blockfp8/blockfp8.h"
#include "blockfp8/blockfp8.hpp"
#include "gemm_arena.h"
#include "gpu_test_util.h"
#include "random.h"
#include "reference.h"

namespace bf8test {
namespace {

constexpr int32_t kWeightRows[] = {64, 80, 96, 112, 128, 144, 160, 176, 192};

blockfp8_config_t tiled(int32_t weight_rows = 0, int32_t stages = 0, int32_t cluster_m = 0, int32_t cluster_n = 0) {
  blockfp8_config_t c{};
  c.kernel = BLOCKFP8_KERNEL_TILED, c.token_tile = 128, c.split_k = 1, c.warpgroups = 2;
  c.weight_rows = weight_rows, c.stages = stages, c.cluster_m = cluster_m, c.cluster_n = cluster_n;
  return c;
}

// Every cluster shape the kernel has, at a few widths (single CTAs, pairs along M, 2 and 4 along N).
std::vector<blockfp8_config_t> every_cluster() {
  std::vector<blockfp8_config_t> v;
  for (int32_t r : {64, 144, 176, 192})
    for (auto [cm, cn] : {std::pair{1, 1}, std::pair{2, 1}, std::pair{1, 2}, std::pair{1, 4}}) v.push_back(tiled(r, 0, cm, cn));
  v.push_back(tiled(128, 0, 2, 2));  // the 2-D clusters: both operands multicast
  v.push_back(tiled(128, 0, 2, 4));
  return v;
}

std::vector<blockfp8_config_t> every_width() {
  std::vector<blockfp8_config_t> v;
  for (int32_t r : kWeightRows) v.push_back(tiled(r));
  return v;
}

// a_scale column-major: strides (1, M).
GemmSpec col_a(GemmSpec s) {
  s.sa_m = 1, s.sa_k = s.m;
  return s;
}

class TiledTest : public HopperTest {
 protected:
  // One problem, its GPU reference, and every configuration run twice.
  void run_case(const GemmSpec& s, const std::vector<blockfp8_config_t>& cfgs) {
    SCOPED_TRACE(resolved(s).str() + "; " + seed_note());
    GemmArena g;
    const uint64_t seed = mix64(test_seed() ^ mix64(uint64_t(s.m) * 31 + uint64_t(s.n) * 7 + uint64_t(s.k) +
                                                     uint64_t(s.dtype) * 1000003));
    CUDA_ASSERT(g.set(s, seed, stream_));
    std::vector<float> ref;
    CUDA_ASSERT(g.reference(stream_));
    CUDA_ASSERT(cudaStreamSynchronize(stream_));
    CUDA_ASSERT(g.fetch_reference(ref));
    for (const blockfp8_config_t& cfg : cfgs) {
      const std::string name = blockfp8::config_name(cfg);
      SCOPED_TRACE(name);
      std::vector<uint8_t> first, second;
      ASSERT_NO_FATAL_FAILURE(run(g, cfg, first));
      Comparison cmp;
      const std::string err = g.check(first, ref, &cmp);
      std::printf("[ tiled    ] %-110s %-22s %s\n", g.spec().str().c_str(), name.c_str(), cmp.str().c_str());
      EXPECT_TRUE(err.empty()) << err;
      EXPECT_GT(cmp.max_abs_ref, 0) << "degenerate test data";
      ASSERT_NO_FATAL_FAILURE(run(g, cfg, second));
      EXPECT_TRUE(first == second) << "two runs are not bitwise identical";
      if (HasFailure()) return;
    }
  }

  void run(const GemmArena& g, const blockfp8_config_t& cfg, std::vector<uint8_t>& out) {
    CUDA_ASSERT(g.poison(stream_));
    const blockfp8_status_t st = g.call(&cfg, stream_);
    ASSERT_EQ(st, BLOCKFP8_SUCCESS) << blockfp8_status_string(st);
    CUDA_ASSERT(cudaGetLastError());
    CUDA_ASSERT(cudaStreamSynchronize(stream_));
    CUDA_ASSERT(g.fetch(out));
  }

  void expect_refused(const GemmSpec& s, const blockfp8_config_t& cfg, const char* why) {
    SCOPED_TRACE(why);
    GemmArena g;
    CUDA_ASSERT(g.set(s, mix64(test_seed() ^ 0x7117ed), stream_));
    EXPECT_EQ(g.call(&cfg, stream_), BLOCKFP8_ERROR_INVALID_CONFIG);
    CUDA_ASSERT(cudaStreamSynchronize(stream_));
    std::vector<uint8_t> region;
    CUDA_ASSERT(g.fetch(region));
    EXPECT_TRUE(g.untouched(region)) << "a refused call wrote to C";
  }
};

// Every width on tails in M and N: 129 = 128 + 1 tokens, N below, at and across b_scale blocks.
TEST_F(TiledTest, EveryWeightRowsWithTails) {
  for (const GemmSpec& s : {spec(129, 100, 512), spec(300, 2112, 512), spec(127, 576, 128), spec(1, 16, 128),
                            spec(128, 7168, 256)})
    ASSERT_NO_FATAL_FAILURE(run_case(s, every_width()));
}

// The shapes of the spec, each with the default width and two forced ones (the cluster the
// dispatcher picks for each: pairs along M at an even number of token tiles, else along N or none).
TEST_F(TiledTest, Shapes) {
  const std::vector<blockfp8_config_t> cfgs = {tiled(), tiled(176), tiled(128)};
  for (const GemmSpec& s :
       {spec(1, 2112, 7168), spec(127, 16, 7168), spec(128, 576, 512), spec(129, 7168, 512), spec(300, 100, 7168),
        spec(1024, 2112, 7168), spec(1024, 16, 512), spec(300, 576, 7168), spec(4096, 7168, 512),
        spec(4096, 2112, 7168), spec(4096, 100, 128), spec(1300, 7168, 256)})
    ASSERT_NO_FATAL_FAILURE(run_case(s, cfgs));
}

// One token tile: clusters of CTAs on neighbouring weight tiles share it (pairs by default), with
// weight tile counts that leave the last cluster CTAs past N (700 rows: 9 tiles of 80, 5 of 144).
TEST_F(TiledTest, OneTokenTileClustersAlongN) {
  for (const GemmSpec& s : {spec(100, 700, 512), spec(1, 300, 256), spec(128, 2112, 1024), spec(65, 7168, 384),
                            spec(257, 700, 512)})
    ASSERT_NO_FATAL_FAILURE(run_case(s, every_width()));
}

// Every cluster shape forced, on grids whose last clusters hold CTAs past M (odd token-tile counts
// with pairs along M: 300 and 1300 tokens) or past N (clusters of 4 along N over 5, 3 or 17 weight
// tiles), tails inside a slice, and several rounds per cluster.
TEST_F(TiledTest, EveryClusterShape) {
  for (const GemmSpec& s : {spec(300, 700, 512), spec(1300, 2112, 256), spec(129, 100, 384), spec(640, 7168, 128),
                            spec(385, 1000, 640), spec(1, 2112, 256)})
    ASSERT_NO_FATAL_FAILURE(run_case(s, every_cluster()));
}

TEST_F(TiledTest, OutputDtypes) {
  const std::vector<blockfp8_config_t> cfgs = {tiled(64), tiled(96), tiled(176), tiled(192)};
  for (blockfp8_dtype_t t : {BLOCKFP8_DTYPE_FP16, BLOCKFP8_DTYPE_FP32, BLOCKFP8_DTYPE_BF16})
    for (const GemmSpec& s : {spec(300, 2112, 512, t), spec(1024, 576, 7168, t), spec(129, 100, 128, t)})
      ASSERT_NO_FATAL_FAILURE(run_case(s, cfgs));
}

TEST_F(TiledTest, ScaleLayouts) {
  const std::vector<blockfp8_config_t> cfgs = {tiled(80), tiled(176), tiled(192)};
  GemmSpec b_col = spec(300, 2112, 1024);
  b_col.sb_n = 1, b_col.sb_k = (2112 + 127) / 128;
  for (const GemmSpec& s : {col_a(spec(300, 2112, 512)), col_a(spec(129, 7168, 1024)), col_a(spec(1, 576, 512)),
                            col_a(spec(1024, 2112, 7168, BLOCKFP8_DTYPE_FP16)), b_col, col_a(b_col)})
    ASSERT_NO_FATAL_FAILURE(run_case(s, cfgs));
}

// ldc > N with the TMA-store epilogue (row stride still a 16-byte multiple), and C layouts that
// force the direct epilogue (odd ldc, C only element-aligned); padded and offset A and B. Split K too:
// its sum stores a quad at once only where C's base and row pitch keep every quad aligned.
TEST_F(TiledTest, Padding) {
  blockfp8_config_t split2 = tiled(192);
  split2.split_k = 2;  // at most 33 clusters of 2 below
  const std::vector<blockfp8_config_t> cfgs = {tiled(96), tiled(176), tiled(192), split2};
  std::vector<GemmSpec> cases;
  GemmSpec s = spec(300, 2112, 512);
  s.ldc = 2112 + 8;  // TMA store, padded rows stay poisoned
  cases.push_back(s);
  s = spec(129, 576, 512);
  s.ldc = 576 + 1;  // direct stores
  cases.push_back(s);
  s = spec(300, 100, 512, BLOCKFP8_DTYPE_FP16);
  s.c_off = 1;  // C 2-byte aligned only
  cases.push_back(s);
  s = spec(257, 2112, 1024, BLOCKFP8_DTYPE_FP32);
  s.ldc = 2112 + 3, s.c_off = 1;
  cases.push_back(s);
  s = spec(300, 576, 512);
  s.lda = 512 + 16, s.ldb = 512 + 48, s.a_off = 16, s.b_off = 32, s.ldc = 576 + 64;
  cases.push_back(s);
  for (const GemmSpec& c : cases) ASSERT_NO_FATAL_FAILURE(run_case(c, cfgs));
}

// A shallow ring wraps around many times per tile and across tiles.
TEST_F(TiledTest, ShallowRings) {
  ASSERT_NO_FATAL_FAILURE(run_case(spec(1024, 2112, 7168), {tiled(176, 2), tiled(192, 3), tiled(64, 2)}));
  ASSERT_NO_FATAL_FAILURE(run_case(spec(300, 100, 128), {tiled(192, 2), tiled(80, 2)}));
}

// Odd k-block counts above 1, alone and with shallow rings whose stage count does not divide them
// (an earlier mainloop ran k-blocks in pairs; the ring's phase arithmetic still wants the cover).
TEST_F(TiledTest, OddKBlockCounts) {
  const std::vector<blockfp8_config_t> cfgs = {tiled(), tiled(64, 2), tiled(144, 3), tiled(176, 2), tiled(192)};
  for (const GemmSpec& s : {spec(300, 2112, 384), spec(129, 576, 640), spec(1024, 2112, 7296), spec(257, 100, 1152)})
    ASSERT_NO_FATAL_FAILURE(run_case(s, cfgs));
}

// K split across a cluster (each rank a share of the k-blocks, summed in rank order through
// distributed shared memory, each rank storing its share of the rows): tails in M and N, k-block
// counts the split does not divide, one token tile and several, and every output dtype.
TEST_F(TiledTest, SplitK) {
  auto split = [](int32_t rows, int32_t k_split, int32_t stages = 0) {
    blockfp8_config_t c = tiled(rows, stages);
    c.split_k = k_split;
    return c;
  };
  const std::vector<blockfp8_config_t> cfgs = {split(64, 2), split(144, 3), split(176, 4), split(192, 2),
                                               split(80, 3, 3)};
  // Every unit of every case must fit the H200's resident clusters (a split runs one tile a cluster,
  // all at once): 640 x 576 and 200 x 2112 at 80 rows were 40 and 54 clusters of 3, more than the H200
  // holds (s10 calls 1 and 2).
  for (const GemmSpec& s : {spec(300, 700, 512), spec(129, 100, 1152), spec(1, 2112, 7168), spec(512, 576, 1536),
                            spec(257, 300, 640, BLOCKFP8_DTYPE_FP16), spec(257, 300, 640, BLOCKFP8_DTYPE_FP32),
                            col_a(spec(200, 1056, 896))})
    ASSERT_NO_FATAL_FAILURE(run_case(s, cfgs));
}

// Clusters of 5-8 along K (uneven shares of rows in the sum: 128 / 5, 128 / 6, 128 / 7), each case
// small enough in units for the H200's clusters of that size.
TEST_F(TiledTest, SplitKWideClusters) {
  auto split = [](int32_t rows, int32_t k_split) {
    blockfp8_config_t c = tiled(rows);
    c.split_k = k_split;
    return c;
  };
  const std::vector<blockfp8_config_t> cfgs = {split(192, 8), split(176, 5), split(128, 7), split(96, 6)};
  for (const GemmSpec& s : {spec(1, 1536, 7168), spec(129, 300, 2048), spec(257, 300, 1280, BLOCKFP8_DTYPE_FP32),
                            col_a(spec(200, 700, 1152))})
    ASSERT_NO_FATAL_FAILURE(run_case(s, cfgs));
}

// The wide token tile (256 tokens: each math warpgroup two 64-token wgmmas a k-block against one
// weight tile, one partial shared by both): every width it has and every cluster shape, on M tails
// inside either half of a tile (1, 65, 129, 200, 255, 257, 300, 1300), N tails and b_scale straddles,
// every a_scale route (row-major by 16-byte loads, column-major by TMA, four-byte copies where K/128 is
// not a multiple of 4), fp16 / fp32 output (the TMA store and the direct one), padded C, shallow rings.
TEST_F(TiledTest, WideTokenTile) {
  auto wide = [](int32_t rows, int32_t stages = 0, int32_t cm = 0, int32_t cn = 0) {
    blockfp8_config_t c = tiled(rows, stages, cm, cn);
    c.token_tile = 256;
    return c;
  };
  const std::vector<blockfp8_config_t> widths = {wide(0), wide(96), wide(112), wide(128, 2)};
  for (const GemmSpec& s : {spec(1, 2112, 512), spec(65, 100, 512), spec(129, 700, 1024), spec(255, 2112, 384),
                            spec(257, 576, 7168), spec(300, 2112, 512), spec(512, 7168, 512), spec(1300, 2112, 1024),
                            spec(4096, 2112, 7168)})
    ASSERT_NO_FATAL_FAILURE(run_case(s, widths));
  std::vector<blockfp8_config_t> clusters;
  for (int32_t r : {96, 128})
    for (auto [cm, cn] : {std::pair{1, 1}, std::pair{2, 1}, std::pair{1, 2}, std::pair{1, 4}})
      clusters.push_back(wide(r, 0, cm, cn));
  clusters.push_back(wide(128, 0, 2, 2));  // 2-D clusters: both operands multicast
  clusters.push_back(wide(128, 0, 2, 4));
  for (const GemmSpec& s : {spec(300, 700, 512), spec(1300, 2112, 256), spec(200, 100, 384), spec(1024, 7168, 640)})
    ASSERT_NO_FATAL_FAILURE(run_case(s, clusters));
  const std::vector<blockfp8_config_t> some = {wide(128, 0, 2, 1), wide(112, 3, 1, 1)};
  GemmSpec b_col = spec(600, 2112, 1024);
  b_col.sb_n = 1, b_col.sb_k = (2112 + 127) / 128;
  GemmSpec padded = spec(300, 2112, 512);
  padded.ldc = 2112 + 8, padded.lda = 512 + 16, padded.a_off = 16;
  GemmSpec direct = spec(257, 2112, 1024, BLOCKFP8_DTYPE_FP32);
  direct.ldc = 2112 + 3, direct.c_off = 1;
  for (const GemmSpec& s : {col_a(spec(300, 2112, 512)), col_a(spec(1024, 576, 7168)), b_col, col_a(b_col),
                            spec(300, 2112, 512, BLOCKFP8_DTYPE_FP16), spec(513, 700, 512, BLOCKFP8_DTYPE_FP32),
                            padded, direct, spec(700, 2112, 1152)})
    ASSERT_NO_FATAL_FAILURE(run_case(s, some));
}

// Forced configurations the kernel cannot run: INVALID_CONFIG and C untouched.
TEST_F(TiledTest, BadForcedConfigsAreRefused) {
  const GemmSpec s = spec(300, 2112, 512);
  blockfp8_config_t c = tiled(72);
  expect_refused(s, c, "weight_rows 72 (not a multiple of 16)");
  expect_refused(s, tiled(100), "weight_rows 100");
  expect_refused(s, tiled(208), "weight_rows 208 (above the register budget)");
  expect_refused(s, tiled(256), "weight_rows 256");
  expect_refused(s, tiled(48), "weight_rows 48");
  c = tiled(128);
  c.token_tile = 64;
  expect_refused(s, c, "token_tile 64");
  c = tiled(144);
  c.token_tile = 256;
  expect_refused(s, c, "token_tile 256 with weight_rows 144 (above its register budget)");
  c.weight_rows = 64;
  expect_refused(s, c, "token_tile 256 with weight_rows 64");
  c.weight_rows = 128, c.split_k = 2;
  expect_refused(s, c, "token_tile 256 with split_k 2");
  c = tiled(128);
  c.split_k = 3;
  expect_refused(s, c, "split_k 3 over 51 tiles (more than the clusters of 3 the device holds)");
  c = tiled(128);
  c.warpgroups = 1;
  expect_refused(s, c, "warpgroups 1");
  expect_refused(s, tiled(128, 1), "1 stage");
  expect_refused(s, tiled(144, 0, 2, 2), "a 2 x 2 cluster at 144 rows (2-D clusters: 128 rows only)");
  expect_refused(s, tiled(128, 0, 4, 2), "a 4 x 2 cluster");
  expect_refused(s, tiled(128, 0, 4, 1), "4 CTAs along M");
  expect_refused(s, tiled(128, 0, 1, 3), "3 CTAs along N");
  expect_refused(s, tiled(128, 0, -1, 1), "cluster_m -1");
  c = tiled(128, 0, 2, 1);
  c.split_k = 2;
  expect_refused(s, c, "split_k 2 with a pair along M");
  c = tiled(64);
  c.split_k = 5;
  expect_refused(s, c, "split_k 5");
  c = tiled(64);
  c.split_k = 2;
  expect_refused(spec(4096, 7168, 512), c, "split_k 2 over more tiles than clusters fit");
  expect_refused(s, tiled(128, 64), "64 stages");
  GemmSpec mis = spec(300, 2112, 512);
  mis.a_off = 1, mis.lda = 513;
  expect_refused(mis, tiled(128), "A not TMA-compatible");
  mis = spec(300, 2112, 512);
  mis.ldb = 520;
  expect_refused(mis, tiled(128), "ldb % 16 != 0");
}

}  // namespace
}  // namespace bf8test
