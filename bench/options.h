// The command line of blockfp8-bench.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "blockfp8/blockfp8.h"
#include "shapes.h"

namespace bench {

struct Options {
  std::vector<int64_t> tps{1, 2, 4, 8};
  std::vector<Shape> shapes, added;
  std::vector<int64_t> ms{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192};
  bool paths = false, sweep = false, cublaslt = true, floor = true, check = true;
  int lt_algos = 1, replays = 20, max_copies = 512, device = 0;
  double l2_factor = 3.0, floor_gb = 0;
  double settle_ms = 100, settle_min_us = 20;  // --settle-ms: see set_settle (timing.h)
  int config_rounds = 1;                      // --config-rounds: see run_config_rounds (runner.cpp)
  bool repeat_check = false, user_shapes = false, quant = false, host_overhead = false;
  bool bf16a = true;         // the bf16-activation backends (blockfp8_bf16a, blockfp8_quant_gemm)
  bool a_scale_col_major = false;  // --a-scale-col-major: a_scale strides (1, M rounded up to 4)
  bool const_weights = true;  // the blockfp8_constw backend (BLOCKFP8_FLAG_CONST_WEIGHTS), M <= 128: --no-constw
  int64_t bf16a_max_m = 256;  // ... at every M up to this
  std::vector<blockfp8_config_t> configs;  // --config: forced configurations timed at every point
  std::string json_path, commit;
  uint64_t seed = 1;
};

// A configuration from its name as blockfp8_config_name writes it ("swapab_r64_t8_s3_w2_k2_p6",
// "tiled_t128_r144_p5_c2x1", "tiled_t128_r192_p4_c1x1_k3"; also "tiled_t128_r144_p5", which leaves the
// cluster to the library; a 0 field means the library's default). False if `name` is not one.
bool parse_config_name(const std::string& name, blockfp8_config_t* cfg);

// Parses argv; prints usage and exits on --help or a malformed option.
Options parse_options(int argc, char** argv);

}  // namespace bench
