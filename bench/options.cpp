#include "options.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace bench {
namespace {

const char* kUsage = R"(usage: blockfp8-bench [options]

Shapes and sizes
  --tp LIST          TP degrees for the DeepSeek-V3/R1 shape set (default 1,2,4,8)
  --shape N,K        time this (N, K) instead of the DeepSeek set (repeatable)
  --add-shape N,K    time this (N, K) in addition to the DeepSeek set (repeatable)
  --m LIST           token counts (default 1,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192)

What to time (the floor, an empty kernel, cuBLASLt, the dispatcher's choice and, at M <= 256, the
              bf16-activation backends by default)
  --paths            also every forced path of a small per-M set: at M <= 512 the decode kernel with
                     token_tile t = max(8, next_pow2(min(M,128))), weight_rows {32,64}, split_k
                     {1,2,3,4,6,8}, stage_kblocks {1,2,4} (t = 128: warpgroups 1 and 2); at M >= 64
                     the tiled kernel with weight_rows {auto,96,128,144,176,192}, and at M >= 512 its
                     256-token tiles of 128 rows
  --sweep            as --paths, with the decode kernel at every M, token_tile t/2, t and 2t (8-128),
                     weight_rows {16,32,40,48,56,64}, and warpgroups 1 and 2 in place of the default
  --no-cublaslt      skip the cuBLASLt peer
  --lt-algos N       time the top N cuBLASLt heuristic algorithms, report the fastest (default 1)
  --no-floor         skip the streaming floor and the empty kernel
  --no-check         skip the SIMT reference and the correctness check
  --a-scale-col-major  a_scale column-major with M rounded up to 4 (strides (1, M4), the layout DeepGEMM
                     and vLLM's TMA-aligned scales use); default row-major (K/128, 1)
  --no-bf16a         skip the bf16-activation backends: blockfp8_bf16a (blockfp8_gemm_bf16a, one call)
                     and blockfp8_quant_gemm (blockfp8_quantize_1x128 + blockfp8_gemm), timed by default
                     at every M <= 256, checked bitwise against each other and against the SIMT reference
  --bf16a-max-m N    largest M for the bf16-activation backends (default 256)
  --constw           time blockfp8_constw: the dispatcher's choice with BLOCKFP8_FLAG_CONST_WEIGHTS at every
                     M <= 128 (the default; checked like the others)
  --no-constw        do not time blockfp8_constw
  --config NAME      also this forced configuration at every point, named as the JSON's configs are
                     (swapab_r64_t8_s3_w2_k2_p6, tiled_t128_r144_p5_c2x1, tiled_t128_r192_p0_c1x1_k3
                     for K split over 3; a field 0 = the library's default where blockfp8_config_t
                     has one (rows, warpgroups, stage k-blocks, stages; a decode split must be 1-8);
                     a tiled name without _cMxN takes the default cluster), as
                     backend blockfp8:NAME, and with const weights as blockfp8_constw:NAME where
                     blockfp8_constw runs (repeatable; where the library refuses it, the point is
                     skipped and a line on stderr says so, once a configuration)
  --config-rounds R  time the --config configurations R times each at every point, in a fresh shuffled
                     order per round, and report each one's median (cold_min_us, cold_max_us and graphs
                     in the JSON); no blockfp8_constw rows then

Timing
  --replays N        graph replays per measurement, median taken (default 20)
  --settle-ms MS     before timing a graph whose calls take >= --settle-min-us (default 20), replay it
                     untimed for MS ms (default 100; 0: off): under tensor-core load the GPU runs at its
                     power limit, and a graph timed right after a light phase (the reference check)
                     runs at the clock it had there; settled, each backend is timed at its own steady
                     state (unsettled, cuBLASLt, timed first, read a median 14 % faster at M >= 1024).
                     Decided per point: once one graph of an (N, K, M) point settles, the later ones
                     do too, and cuBLASLt, timed first, is timed again settled where blockfp8's
                     graphs settled and its own had not; rows say "settled". The floor's first
                     candidate always settles.
  --l2-factor F      cold copies cycle at least F x the L2 size (default 3)
  --max-copies N     cap on operand copies (default 512)

Output
  --json PATH        append one JSON object per timed point to PATH
  --commit STR       commit stamped on every JSON line (default $BLOCKFP8_COMMIT, else "unknown")
  --seed N           input seed (default 1)
  --device N         CUDA device (default 0)

Special runs (each does only that and exits)
  --floor-gb G       the streaming floor on one buffer of G GB; reports TB/s (the issue asks >= 4.0)
  --repeat-check     the primary shape (2112,7168, or the first --shape) twice; reports timing
                     agreement and whether the outputs are bitwise identical
  --host-overhead    host time of one blockfp8_gemm call vs an empty kernel launch (M=1, 2112x7168)
  --quant            blockfp8_quantize_1x128, bf16, K = 7168, M in {1,4,32,128,4096}: cold/hot GB/s
)";

[[noreturn]] void usage_error(const std::string& msg) {
  std::fprintf(stderr, "blockfp8-bench: %s\n\n%s", msg.c_str(), kUsage);
  std::exit(1);
}

}  // namespace

bool parse_config_name(const std::string& name, blockfp8_config_t* cfg) {
  blockfp8_config_t c{};
  int n = 0;
  if (std::sscanf(name.c_str(), "swapab_r%d_t%d_s%d_w%d_k%d_p%d%n", &c.weight_rows, &c.token_tile, &c.split_k,
                  &c.warpgroups, &c.stage_kblocks, &c.stages, &n) == 6 &&
      n == int(name.size())) {
    c.kernel = BLOCKFP8_KERNEL_SWAPAB_SPLITK;
  } else if (std::sscanf(name.c_str(), "warpmma_r%d_t%d_s%d_w%d_k%d%n", &c.weight_rows, &c.token_tile, &c.split_k,
                         &c.warpgroups, &c.stage_kblocks, &n) == 5 &&
             n == int(name.size())) {
    c.kernel = BLOCKFP8_KERNEL_WARP_MMA;
  } else if ((std::sscanf(name.c_str(), "tiled_t%d_r%d_p%d_c%dx%d_k%d%n", &c.token_tile, &c.weight_rows, &c.stages,
                          &c.cluster_m, &c.cluster_n, &c.split_k, &n) == 6 ||
              std::sscanf(name.c_str(), "tiled_t%d_r%d_p%d_c%dx%d%n", &c.token_tile, &c.weight_rows, &c.stages,
                          &c.cluster_m, &c.cluster_n, &n) == 5 ||
              std::sscanf(name.c_str(), "tiled_t%d_r%d_p%d%n", &c.token_tile, &c.weight_rows, &c.stages, &n) == 3) &&
             n == int(name.size())) {
    c.kernel = BLOCKFP8_KERNEL_TILED;
  } else {
    return false;
  }
  *cfg = c;
  return true;
}

Options parse_options(int argc, char** argv) {
  Options o;
  auto value = [&](int& i) -> std::string {
    if (i + 1 >= argc) usage_error(std::string("missing value after ") + argv[i]);
    return argv[++i];
  };
  auto positive = [&](const std::string& flag, const std::string& text) {
    char* end = nullptr;
    const long v = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end || v < 1) usage_error(flag + " wants a positive integer, got '" + text + "'");
    return int(v);
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::printf("%s", kUsage);
      std::exit(0);
    } else if (a == "--tp") {
      if (!parse_int_list(value(i), &o.tps)) usage_error("bad --tp list");
    } else if (a == "--shape" || a == "--add-shape") {
      Shape s;
      const std::string v = value(i);
      if (!parse_shape(v, &s)) usage_error("bad shape '" + v + "' (want N,K with K a multiple of 128)");
      add_shape(a == "--shape" ? o.shapes : o.added, s);
      if (a == "--shape") o.user_shapes = true;
    } else if (a == "--m") {
      if (!parse_int_list(value(i), &o.ms)) usage_error("bad --m list");
    } else if (a == "--paths") {
      o.paths = true;
    } else if (a == "--sweep") {
      o.sweep = true;
    } else if (a == "--no-cublaslt") {
      o.cublaslt = false;
    } else if (a == "--lt-algos") {
      o.lt_algos = positive(a, value(i));
    } else if (a == "--no-floor") {
      o.floor = false;
    } else if (a == "--no-check") {
      o.check = false;
    } else if (a == "--a-scale-col-major") {
      o.a_scale_col_major = true;
    } else if (a == "--no-constw") {
      o.const_weights = false;
    } else if (a == "--constw") {
      o.const_weights = true;
    } else if (a == "--config") {
      const std::string v = value(i);
      blockfp8_config_t c;
      if (!parse_config_name(v, &c))
        usage_error("bad --config '" + v + "' (want e.g. swapab_r64_t8_s3_w2_k2_p6 or tiled_t128_r144_p5_c2x1)");
      o.configs.push_back(c);
    } else if (a == "--no-bf16a") {
      o.bf16a = false;
    } else if (a == "--bf16a-max-m") {
      o.bf16a_max_m = positive(a, value(i));
    } else if (a == "--replays") {
      o.replays = positive(a, value(i));
    } else if (a == "--config-rounds") {
      o.config_rounds = positive(a, value(i));
    } else if (a == "--settle-ms") {
      o.settle_ms = std::atof(value(i).c_str());
      if (!(o.settle_ms >= 0)) usage_error("--settle-ms must be >= 0");
    } else if (a == "--settle-min-us") {
      o.settle_min_us = std::atof(value(i).c_str());
      if (!(o.settle_min_us >= 0)) usage_error("--settle-min-us must be >= 0");
    } else if (a == "--l2-factor") {
      o.l2_factor = std::atof(value(i).c_str());
      if (!(o.l2_factor > 0)) usage_error("--l2-factor must be > 0");
    } else if (a == "--max-copies") {
      o.max_copies = std::max(2, positive(a, value(i)));
    } else if (a == "--json") {
      o.json_path = value(i);
    } else if (a == "--commit") {
      o.commit = value(i);
    } else if (a == "--seed") {
      o.seed = std::strtoull(value(i).c_str(), nullptr, 10);
    } else if (a == "--device") {
      o.device = std::atoi(value(i).c_str());
    } else if (a == "--floor-gb") {
      o.floor_gb = std::atof(value(i).c_str());
      if (!(o.floor_gb > 0)) usage_error("--floor-gb must be > 0");
    } else if (a == "--repeat-check") {
      o.repeat_check = true;
    } else if (a == "--quant") {
      o.quant = true;
    } else if (a == "--host-overhead") {
      o.host_overhead = true;
    } else {
      usage_error("unknown option " + a);
    }
  }
  if (o.commit.empty()) {
    const char* env = std::getenv("BLOCKFP8_COMMIT");
    o.commit = env && *env ? env : "unknown";
  }
  if (o.shapes.empty()) {
    std::vector<int> tps(o.tps.begin(), o.tps.end());
    o.shapes = deepseek_shapes(tps);
  }
  for (const Shape& s : o.added) add_shape(o.shapes, s);
  std::sort(o.ms.begin(), o.ms.end());
  o.ms.erase(std::unique(o.ms.begin(), o.ms.end()), o.ms.end());
  return o;
}

}  // namespace bench
