#include "runner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>

#include "blockfp8/blockfp8.h"
#include "check.h"
#include "floor.h"
#include "inputs.h"
#include "timing.h"

namespace bench {

void recover_or_die(cudaStream_t stream) {
  cudaGetLastError();
  const cudaError_t e1 = cudaStreamSynchronize(stream);
  const cudaError_t e2 = cudaDeviceSynchronize();
  if (e1 != cudaSuccess || e2 != cudaSuccess) {
    const cudaError_t e = e1 != cudaSuccess ? e1 : e2;
    std::fprintf(stderr, "fatal: the CUDA context is broken (%s: %s); stopping. Results so far are written.\n",
                 cudaGetErrorName(e), cudaGetErrorString(e));
    std::exit(2);
  }
}

void emit(Context& ctx, const Row& r) {
  ctx.json.write(r, ctx.info);
  ctx.table.row(r);
}

namespace {

struct LibError : CudaError {
  blockfp8_status_t status;
  LibError(blockfp8_status_t s, const std::string& what)
      : CudaError(what + ": " + blockfp8_status_string(s)), status(s) {}
};

std::string config_name(const blockfp8_config_t& cfg) {
  char buf[96] = {};
  blockfp8_config_name(&cfg, buf, sizeof buf);
  return buf;
}

std::string plan_name(int64_t m, int64_t n, int64_t k) {
  blockfp8_config_t cfg{};
  if (blockfp8_gemm_plan(m, n, k, &cfg) != BLOCKFP8_SUCCESS) return "unknown";
  return config_name(cfg);
}

blockfp8_status_t call_blockfp8(const Operands& ops, int c, void* out, int64_t ldc, blockfp8_dtype_t dtype,
                                const blockfp8_config_t* cfg, cudaStream_t s) {
  const int64_t kb = ops.k_blocks();
  return blockfp8_gemm_ex(ops.m, ops.n, ops.k, ops.a[c], ops.k, ops.a_scale[c], ops.sa_m, ops.sa_k, ops.b[c],
                          ops.k, ops.b_scale[c], kb, 1, out, ldc, dtype, cfg, s);
}

int64_t next_pow2(int64_t v) {
  int64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

// --paths: at M <= 512, the decode kernel with the token tile the dispatcher would use (128 and
// several token tiles past M = 128) x weight-tile heights x splits x k-blocks per stage (default
// warpgroups; at 128 tokens both counts, since one warpgroup and two split tokens differently); from
// M = 64 up, the tiled kernel at several tile widths (from M = 512 also 256-token tiles). --sweep adds 16-, 40-, 48- and 56-row tiles (the
// last three cross b_scale blocks: two warpgroups at up to 64 tokens, else refused), the next token tile,
// the previous one (two token tiles a call: e.g. 32-token tiles, two CTAs an SM, against one 64-token
// tile at M = 64), and both warpgroup counts everywhere. Pipeline depth is always the library's.
std::vector<blockfp8_config_t> forced_paths(int64_t m, bool full) {
  std::vector<blockfp8_config_t> out;
  if (m <= 512 || full) {
    const int64_t t = std::max<int64_t>(8, next_pow2(std::min<int64_t>(m, 128)));
    std::vector<int> tiles;
    for (int tt : {8, 16, 32, 64, 128})
      if (tt == t || (full && (tt == 2 * t || 2 * tt == t))) tiles.push_back(tt);
    const std::vector<int> heights = full ? std::vector<int>{16, 32, 40, 48, 56, 64} : std::vector<int>{32, 64};
    for (int tt : tiles) {
      const std::vector<int> warpgroups = full || tt == 128 ? std::vector<int>{1, 2} : std::vector<int>{0};
      for (int rows : heights)
        for (int sk : {1, 2, 3, 4, 6, 8})
          for (int kblocks : {1, 2, 4})
            for (int wg : warpgroups) {
              blockfp8_config_t c{};  // zeroed: fields added to the struct later mean "default"
              c.kernel = BLOCKFP8_KERNEL_SWAPAB_SPLITK;
              c.token_tile = tt;
              c.split_k = sk;
              c.warpgroups = wg;
              c.weight_rows = rows;
              c.stage_kblocks = kblocks;
              out.push_back(c);
            }
    }
  }
  if (m >= 64)
    for (int rows : {0, 96, 128, 144, 176, 192}) {
      blockfp8_config_t c{};
      c.kernel = BLOCKFP8_KERNEL_TILED;
      c.weight_rows = rows;
      out.push_back(c);
    }
  if (m >= 512) {  // 256-token tiles (the dispatcher weighs them from kTiledWideMinTokens)
    blockfp8_config_t c{};
    c.kernel = BLOCKFP8_KERNEL_TILED;
    c.token_tile = 256;
    c.weight_rows = 128;
    out.push_back(c);
  }
  return out;
}

// A check's reference: `launch` enqueues the library's SIMT kernel (fp32 output) on `st`; this waits
// for it. Empty on success, else why (also on stderr after `tag`), with the stream recovered.
std::string run_reference(const std::function<blockfp8_status_t()>& launch, cudaStream_t st, const char* tag) {
  const blockfp8_status_t s = launch();
  const cudaError_t e = s == BLOCKFP8_SUCCESS ? cudaStreamSynchronize(st) : cudaSuccess;
  if (s == BLOCKFP8_SUCCESS && e == cudaSuccess) return {};
  const std::string note = std::string("reference failed: ") +
                           (s != BLOCKFP8_SUCCESS ? blockfp8_status_string(s) : cudaGetErrorString(e));
  std::fprintf(stderr, "  %s%s\n", tag, note.c_str());
  recover_or_die(st);
  return note;
}

Row base_row(const Shape& shape, const Operands& ops, const Context& ctx) {
  Row r;
  r.shape_name = shape.name;
  r.n = ops.n;
  r.k = ops.k;
  r.m = ops.m;
  r.flops = ops.flops();
  r.bytes = ops.min_bytes();
  r.replays = ctx.opt.replays;
  r.extra = ctx.run_tag;
  return r;
}

// --config-rounds R: the forced configurations timed R times each, every round in a freshly shuffled
// order, each time in its own graph; one row per configuration with the median cold and hot times
// and the cold range (cold_min_us, cold_max_us). Why: a tiled kernel's time moves with what ran just
// before it, and some graphs of one configuration run 7-25 % slow (s9 calls 9-11); a median over
// shuffled positions is what a comparison between configurations can stand on.
void run_config_rounds(Context& ctx, const std::vector<blockfp8_config_t>& configs, int rounds, uint64_t seed,
                       const std::function<std::optional<Row>(const blockfp8_config_t&)>& measure,
                       std::vector<Row>& rows) {
  const size_t n = configs.size();
  std::vector<std::optional<Row>> first(n);
  std::vector<std::vector<double>> cold(n), hot(n);
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::mt19937_64 rng(seed);
  for (int round = 0; round < rounds; ++round) {
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t i : order) {
      std::optional<Row> r = measure(configs[i]);
      if (!r) continue;
      if (!first[i] || !first[i]->error.empty()) first[i] = r;
      if (r->error.empty() && r->cold_us) cold[i].push_back(*r->cold_us);
      if (r->error.empty() && r->hot_us) hot[i].push_back(*r->hot_us);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (!first[i]) continue;
    Row r = *first[i];
    if (!cold[i].empty()) {
      r.cold_us = median(cold[i]);
      r.extra.emplace_back("cold_min_us", *std::min_element(cold[i].begin(), cold[i].end()));
      r.extra.emplace_back("cold_max_us", *std::max_element(cold[i].begin(), cold[i].end()));
      r.extra.emplace_back("graphs", double(cold[i].size()));
    }
    if (!hot[i].empty()) r.hot_us = median(hot[i]);
    emit(ctx, r);
    rows.push_back(r);
  }
}

// Check (poison, one call on copy 0, compare with the reference), then cold and hot timings.
void measure_into(Context& ctx, Row& r, const Operands& ops, const Enqueue& enqueue, const void* out0,
                  const float* ref) {
  try {
    if (ref) {
      poison_bf16(const_cast<void*>(out0), ops.n, ops.m, ops.n, ctx.stream);
      enqueue(0, ctx.stream);
      const CheckResult c = compare_bf16(out0, ops.n, ref, ops.m, ops.n, ctx.stream);
      r.rel_err = c.rel_err;
      r.max_abs_err = c.max_abs_err;
      r.written = c.written();
    } else {
      enqueue(0, ctx.stream);
      BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
    }
    if (ctx.hash_outputs) r.out_hash = hash_bf16(out0, ops.n, ops.m, ops.n, ctx.stream);
    const ColdHot t = time_cold_hot(enqueue, ops.copies(), ctx.opt.replays, ctx.stream);
    r.cold_us = t.cold_us;
    r.hot_us = t.hot_us;
    r.copies = t.copies;
    r.hot_calls = t.hot_calls;
  } catch (const CudaError& e) {
    r.error = e.what();
    recover_or_die(ctx.stream);
  }
}

// The bf16-activation backends at one M (--no-bf16a skips them): the same weight copies, per copy a
// bf16 X [m][K] and a workspace slot (X_q [m][K], then its scales: row-major for the two launches here,
// with room for what blockfp8_gemm_bf16a asks, checked against blockfp8_gemm_bf16a_workspace_size), the
// same cold rotation.
//   blockfp8_quant_gemm: blockfp8_quantize_1x128 into the slot, then blockfp8_gemm (two launches);
//   blockfp8_bf16a:      blockfp8_gemm_bf16a with the slot as its workspace (one launch where it can).
// Checked: each against the SIMT kernel run on X_q as blockfp8_quantize_1x128 makes it (copy 0), and
// the two outputs of copy 0 against each other bit for bit (the contract of blockfp8_gemm_bf16a).
struct Bf16aInputs {
  std::vector<const void*> x;
  std::vector<uint8_t*> ws;  // X_q at the slot's start, scales at scales_offset
  size_t ws_bytes = 0, scales_offset = 0;
  float* ref = nullptr;  // device, m x N fp32; nullptr with --no-check
};

constexpr blockfp8_scale_format_t kBf16aFormat = BLOCKFP8_SCALE_FP32;

void run_bf16a_backends(Context& ctx, const Operands& ops, const Bf16aInputs& in, const std::string& plan,
                        const Row& proto, std::vector<Row>& rows) {
  cudaStream_t st = ctx.stream;
  const int64_t m = ops.m, N = ops.n, K = ops.k, kb = ops.k_blocks();
  auto scales = [&](int c) { return reinterpret_cast<float*>(in.ws[c] + in.scales_offset); };
  auto quant_gemm = [&](int c, cudaStream_t s) {
    blockfp8_status_t status = blockfp8_quantize_1x128(m, K, in.x[c], K, BLOCKFP8_DTYPE_BF16, in.ws[c], K, scales(c),
                                                       kb, 1, kBf16aFormat, s);
    if (status != BLOCKFP8_SUCCESS) throw LibError(status, "blockfp8_quantize_1x128");
    status = blockfp8_gemm(m, N, K, in.ws[c], K, scales(c), kb, 1, ops.b[c], K, ops.b_scale[c], kb, 1, ops.c[c], N,
                           BLOCKFP8_DTYPE_BF16, s);
    if (status != BLOCKFP8_SUCCESS) throw LibError(status, "blockfp8_gemm");
  };
  auto bf16a = [&](int c, cudaStream_t s) {
    const blockfp8_status_t status =
        blockfp8_gemm_bf16a(m, N, K, in.x[c], K, BLOCKFP8_DTYPE_BF16, ops.b[c], K, ops.b_scale[c], kb, 1, ops.c[c], N,
                            BLOCKFP8_DTYPE_BF16, kBf16aFormat, in.ws[c], in.ws_bytes, s);
    if (status != BLOCKFP8_SUCCESS) throw LibError(status, "blockfp8_gemm_bf16a");
  };

  size_t need = 0;
  const blockfp8_status_t ws_status =
      blockfp8_gemm_bf16a_workspace_size(m, N, K, in.x[0], K, BLOCKFP8_DTYPE_BF16, ops.b[0], K, &need);

  // Bitwise: copy 0 through both, each output poisoned differently first (0xFFFF / 0xFEFE), so an
  // element one of them skipped cannot match.
  std::optional<bool> identical;
  std::string identity_note;
  try {
    poison_bf16(ops.c[0], N, m, N, st, 0xFF);
    quant_gemm(0, st);
    const std::vector<uint16_t> two = fetch_bf16(ops.c[0], N, m, N, st);
    poison_bf16(ops.c[0], N, m, N, st, 0xFE);
    bf16a(0, st);
    const std::vector<uint16_t> one = fetch_bf16(ops.c[0], N, m, N, st);
    identical = one == two;
    if (!*identical) {
      size_t differ = 0, first = 0;
      for (size_t i = 0; i < one.size(); ++i)
        if (one[i] != two[i] && differ++ == 0) first = i;
      char buf[160];
      std::snprintf(buf, sizeof buf, "NOT bitwise identical to quantize+gemm: %zu of %zu elements differ, first at (%zu, %zu)",
                    differ, one.size(), first / size_t(N), first % size_t(N));
      identity_note = buf;
      std::fprintf(stderr, "  blockfp8_bf16a M=%lld: %s\n", (long long)m, buf);
    }
  } catch (const CudaError& e) {
    identity_note = std::string("bitwise check failed: ") + e.what();
    recover_or_die(st);
  }

  auto add_note = [](Row& r, const std::string& note) {
    if (!note.empty()) r.note += (r.note.empty() ? "" : "; ") + note;
  };
  // Both move at least X (bf16), the weight and its scales, and C; the two-launch path adds X_q's round trip.
  const double bytes = 2.0 * double(m) * K + double(N) * K + 4.0 * double(ops.n_blocks()) * kb + 2.0 * double(m) * N;

  Row q = proto;
  q.backend = "blockfp8_quant_gemm";
  q.config = "quantize_1x128+" + plan;
  q.bytes = bytes;
  q.identical = identical;
  add_note(q, identity_note);
  measure_into(ctx, q, ops, quant_gemm, ops.c[0], in.ref);
  emit(ctx, q);
  rows.push_back(q);

  Row f = proto;
  f.backend = "blockfp8_bf16a";
  f.bytes = bytes;
  f.identical = identical;
  if (ws_status != BLOCKFP8_SUCCESS) {
    f.config = plan;
    f.error = std::string("blockfp8_gemm_bf16a_workspace_size: ") + blockfp8_status_string(ws_status);
  } else if (need > in.ws_bytes) {
    f.config = plan;
    f.error = "workspace of " + std::to_string(need) + " bytes asked for, slot holds " + std::to_string(in.ws_bytes);
  } else {
    f.config = need == 0 ? plan + "+fused_a" : "quantize_1x128+" + plan;
    f.extra.push_back({"workspace_bytes", double(need)});
    f.extra.push_back({"one_launch", need == 0 ? 1.0 : 0.0});
    add_note(f, identity_note);
    measure_into(ctx, f, ops, bf16a, ops.c[0], in.ref);
    if (f.cold_us && q.cold_us && *q.cold_us > 0 && q.error.empty()) f.extra.push_back({"x_quant_gemm", *f.cold_us / *q.cold_us});
  }
  emit(ctx, f);
  rows.push_back(f);
}

}  // namespace

std::vector<Row> run_shape(Context& ctx, const Shape& shape, int index, int total) {
  const Options& o = ctx.opt;
  cudaStream_t st = ctx.stream;
  std::vector<Row> rows;
  const int64_t N = shape.n, K = shape.k, kb = K / 128, nb = ceil_div(N, 128);
  const double l2_target = o.l2_factor * double(ctx.info.l2_bytes);
  const double w_bytes = double(N) * K + 4.0 * nb * kb;
  const int copies_alloc = int(std::clamp(std::ceil(l2_target / w_bytes), 2.0, double(o.max_copies)));
  const bool cold_ok = copies_alloc * w_bytes >= l2_target;
  std::fprintf(stderr, "[%d/%d] N=%lld K=%lld (%s): %d weight copies%s\n", index, total, (long long)N, (long long)K,
               shape.name.c_str(), copies_alloc, cold_ok ? "" : " (capped by --max-copies: small-M points not fully cold)");
  const std::string shape_tag = "N=" + std::to_string(N) + " K=" + std::to_string(K);
  watch(ctx, shape_tag + ": weights, floor");

  // The weight and its scales: generated once per shape, shared by every M and every backend.
  const size_t w_slot = round_up(size_t(N * K), 256), ws_slot = round_up(size_t(nb * kb) * 4, 256);
  DeviceBuffer wbuf(w_slot * copies_alloc), wsbuf(ws_slot * copies_alloc);
  std::vector<const uint8_t*> w(copies_alloc);
  std::vector<const float*> ws(copies_alloc);
  for (int c = 0; c < copies_alloc; ++c) {
    uint8_t* wp = wbuf.get<uint8_t>() + w_slot * c;
    float* sp = reinterpret_cast<float*>(wsbuf.get<uint8_t>() + ws_slot * c);
    fill_e4m3(wp, size_t(N * K), tensor_seed(o.seed, 1, c, uint64_t(N) * 131 + uint64_t(K)), st);
    fill_scales(sp, size_t(nb * kb), tensor_seed(o.seed, 2, c, uint64_t(N) * 131 + uint64_t(K)), st);
    w[c] = wp;
    ws[c] = sp;
  }
  BENCH_CUDA(cudaStreamSynchronize(st));

  std::optional<double> floor_us;
  if (o.floor) {
    Row fr;
    fr.backend = "floor";
    fr.shape_name = shape.name;
    fr.n = N;
    fr.k = K;
    fr.bytes = double(N) * K;
    fr.replays = o.replays;
    fr.extra = ctx.run_tag;
    try {
      // The floor and the empty kernel are a point of their own: the floor's first candidate settles
      // (measure_floor), and with it every later graph here.
      begin_point();
      std::vector<const void*> srcs(w.begin(), w.end());
      const FloorResult f = measure_floor(srcs, size_t(N * K), ctx.info.sm_count, ctx.sink.get<unsigned>(),
                                          o.replays, st);
      fr.config = f.best.name();
      fr.cold_us = f.cold_us;
      fr.hot_us = f.hot_us;
      fr.copies = copies_alloc;
      if (!cold_ok) fr.note = "copies capped by --max-copies; not fully cold";
      floor_us = f.cold_us;
      for (const FloorTrial& t : f.trials) fr.extra.push_back({"trial_us_" + t.cfg.name(), t.cold_us});
    } catch (const CudaError& e) {
      fr.error = e.what();
      recover_or_die(st);
    }
    emit(ctx, fr);
    rows.push_back(fr);

    Row er;
    er.backend = "empty";
    er.config = "empty_kernel_1x32";
    er.shape_name = shape.name;
    er.n = N;
    er.k = K;
    er.replays = o.replays;
    er.extra = ctx.run_tag;
    try {
      const ColdHot t = time_cold_hot([](int, cudaStream_t s) { launch_empty(s); }, copies_alloc, o.replays, st);
      er.cold_us = t.cold_us;
      er.hot_us = t.hot_us;
      er.copies = t.copies;
      er.hot_calls = t.hot_calls;
    } catch (const CudaError& e) {
      er.error = e.what();
      recover_or_die(st);
    }
    emit(ctx, er);
    rows.push_back(er);
  }

  // Activation and output pools sized for the largest need over the M list; each M carves its own
  // copies out of them, as many as its per-call bytes require to overflow L2.
  auto copies_for = [&](int64_t m) {
    const double bytes = w_bytes + double(m) * K + 4.0 * m * kb + 2.0 * m * N;
    return int(std::clamp(std::ceil(l2_target / bytes), 2.0, double(copies_alloc)));
  };
  auto a_slot = [&](int64_t m) { return round_up(size_t(m * K), 256); };
  auto a_scale_rows = [&](int64_t m) { return o.a_scale_col_major ? round_up(size_t(m), 4) : size_t(m); };
  auto as_slot = [&](int64_t m) { return round_up(a_scale_rows(m) * size_t(kb) * 4, 256); };
  auto c_slot = [&](int64_t m) { return round_up(size_t(m * N) * 2, 256); };
  size_t a_pool = 0, as_pool = 0, c_pool = 0;
  for (int64_t m : o.ms) {
    const size_t c = size_t(copies_for(m));
    a_pool = std::max(a_pool, c * a_slot(m));
    as_pool = std::max(as_pool, c * as_slot(m));
    c_pool = std::max(c_pool, c * c_slot(m));
  }
  DeviceBuffer abuf(a_pool), asbuf(as_pool), cbuf(c_pool);
  DeviceBuffer refbuf(o.check ? size_t(o.ms.back() * N) * 4 : 0);

  // The bf16-activation backends' pools: per copy X [m][K] bf16 and a workspace slot (X_q, scales).
  auto bf16a_at = [&](int64_t m) { return o.bf16a && m <= o.bf16a_max_m; };
  auto x_slot = [&](int64_t m) { return round_up(size_t(m * K) * 2, 256); };
  auto q_bytes = [&](int64_t m) { return round_up(size_t(m * K), 256); };
  // Scales for M rounded up to 4: column-major, as the tiled kernel's plan lays them out (plan_fused).
  auto work_slot = [&](int64_t m) { return q_bytes(m) + round_up(size_t((m + 3) / 4 * 4 * kb) * 4, 256); };
  size_t x_pool = 0, ws_pool = 0;
  int64_t bf16a_max = 0;
  for (int64_t m : o.ms)
    if (bf16a_at(m)) {
      const size_t c = size_t(copies_for(m));
      x_pool = std::max(x_pool, c * x_slot(m));
      ws_pool = std::max(ws_pool, c * work_slot(m));
      bf16a_max = std::max(bf16a_max, m);
    }
  DeviceBuffer xbuf(x_pool), wsbuf_a(ws_pool);
  DeviceBuffer refqbuf(o.check ? size_t(bf16a_max * N) * 4 : 0);
  blockfp8_config_t simt{};  // the references' kernel
  simt.kernel = BLOCKFP8_KERNEL_SIMT;

  for (int64_t m : o.ms) {
    watch(ctx, shape_tag + " M=" + std::to_string(m));
    begin_point();  // timing.h: settling is decided for the point, not per backend
    const int copies = copies_for(m);
    Operands ops;
    ops.m = m;
    ops.n = N;
    ops.k = K;
    ops.sa_m = o.a_scale_col_major ? 1 : kb;
    ops.sa_k = o.a_scale_col_major ? int64_t(a_scale_rows(m)) : 1;
    for (int c = 0; c < copies; ++c) {
      uint8_t* ap = abuf.get<uint8_t>() + a_slot(m) * c;
      float* sp = reinterpret_cast<float*>(asbuf.get<uint8_t>() + as_slot(m) * c);
      fill_e4m3(ap, size_t(m * K), tensor_seed(o.seed, 3, c, uint64_t(m) * 7919 + uint64_t(K)), st);
      fill_scales(sp, a_scale_rows(m) * size_t(kb), tensor_seed(o.seed, 4, c, uint64_t(m) * 7919 + uint64_t(K)), st);
      ops.a.push_back(ap);
      ops.a_scale.push_back(sp);
      ops.b.push_back(w[c]);
      ops.b_scale.push_back(ws[c]);
      ops.c.push_back(cbuf.get<uint8_t>() + c_slot(m) * c);
    }
    BENCH_CUDA(cudaStreamSynchronize(st));
    std::fprintf(stderr, "  M=%lld (%d copies)\n", (long long)m, copies);

    // The reference: the library's SIMT kernel, fp32 output, copy 0.
    const float* ref = nullptr;
    std::string ref_note;
    if (o.check) {
      ref_note = run_reference(
          [&] { return call_blockfp8(ops, 0, refbuf.get(), N, BLOCKFP8_DTYPE_FP32, &simt, st); }, st, "");
      if (ref_note.empty()) ref = refbuf.get<float>();
    }

    std::optional<double> lt_us;
    std::optional<Row> lt_row;  // emitted after the dispatcher's row, which may make the point settle
    bool lt_settled = false;
    if (ctx.lt) {
      Row r = base_row(shape, ops, ctx);
      r.backend = "cublaslt";
      r.floor_us = floor_us;
      r.note = ref_note;
      std::string why;
      bool ok = false;
      try {
        ok = ctx.lt->prepare(ops, o.lt_algos, st, &why);
      } catch (const CudaError& e) {
        why = e.what();
        recover_or_die(st);
      }
      if (!ok) {
        r.error = "cuBLASLt refused: " + why;
      } else {
        auto enqueue = [&](int c, cudaStream_t s) { ctx.lt->enqueue(c, s); };
        if (ctx.lt->algo_count() > 1) {  // pick the fastest of the heuristic's offers, cold
          std::vector<int> order(copies);
          for (int c = 0; c < copies; ++c) order[c] = c;
          double best = INFINITY;
          int best_i = 0;
          for (int i = 0; i < ctx.lt->algo_count(); ++i) {
            ctx.lt->select_algo(i);
            try {
              const double us = time_graph(enqueue, order, o.replays, st).median_us;
              if (us < best) best = us, best_i = i;
            } catch (const CudaError&) {
              recover_or_die(st);
            }
          }
          ctx.lt->select_algo(best_i);
          r.note += (r.note.empty() ? "" : "; ") + std::string("fastest of ") +
                    std::to_string(ctx.lt->algo_count()) + " heuristic algorithms";
        }
        r.config = ctx.lt->config();
        if (ctx.lt->padded_m() != m)
          r.note += (r.note.empty() ? "" : "; ") + std::string("M padded to ") + std::to_string(ctx.lt->padded_m()) +
                    " (cuBLASLt needs M % 4 == 0)";
        measure_into(ctx, r, ops, enqueue, ctx.lt->output(0), ref);
        if (r.error.empty()) lt_us = r.cold_us;
        lt_settled = point_settled();
      }
      lt_row = r;
    }

    // One blockfp8 measurement as a row; nothing where a forced configuration cannot run here.
    auto measure_blockfp8 = [&](const std::string& backend, const std::string& config,
                                const std::optional<blockfp8_config_t>& forced) -> std::optional<Row> {
      Row r = base_row(shape, ops, ctx);
      r.backend = backend;
      r.config = config;
      r.floor_us = floor_us;
      r.cublaslt_us = lt_us;
      r.note = ref_note;
      if (o.a_scale_col_major) r.extra.emplace_back("a_scale_col_major", 1.0);
      const blockfp8_config_t* cfg = forced ? &*forced : nullptr;
      if (forced) {  // a configuration the library cannot run here is skipped, not reported
        const blockfp8_status_t s = call_blockfp8(ops, 0, ops.c[0], N, BLOCKFP8_DTYPE_BF16, cfg, st);
        if (s == BLOCKFP8_ERROR_INVALID_CONFIG) {
          // Said once a configuration, so that a misspelt --config (a decode split of 0, say) does not
          // pass for an empty result.
          static std::set<std::string> said;
          if (said.insert(config).second)
            std::fprintf(stderr, "skipped: %s refused at M=%lld N=%lld K=%lld (%s); not said again\n",
                         config.c_str(), (long long)m, (long long)N, (long long)K, blockfp8_status_string(s));
          return std::nullopt;
        }
        if (s != BLOCKFP8_SUCCESS) {
          r.error = std::string("blockfp8_gemm_ex: ") + blockfp8_status_string(s);
          return r;
        }
        // Which kernel that is, defaults filled in: forced configurations that run as the dispatcher's
        // pick are repeat measurements of it (tools/forced_vs_dispatch.py).
        blockfp8_config_t resolved = *forced;
        if (blockfp8_config_resolve(m, N, K, &resolved) == BLOCKFP8_SUCCESS) r.runs_as = config_name(resolved);
      }
      auto enqueue = [&](int c, cudaStream_t s) {
        const blockfp8_status_t status = call_blockfp8(ops, c, ops.c[c], N, BLOCKFP8_DTYPE_BF16, cfg, s);
        if (status != BLOCKFP8_SUCCESS) throw LibError(status, "blockfp8_gemm_ex");
      };
      measure_into(ctx, r, ops, enqueue, ops.c[0], ref);
      return r;
    };
    auto run_blockfp8 = [&](const std::string& backend, const std::string& config,
                            const std::optional<blockfp8_config_t>& forced) {
      if (std::optional<Row> r = measure_blockfp8(backend, config, forced)) {
        emit(ctx, *r);
        rows.push_back(*r);
      }
    };

    // A configuration (nullopt: the dispatcher's) with const weights, as blockfp8_constw<suffix>, where
    // that backend runs; run_plain_and_constw: as blockfp8<suffix> too.
    auto run_constw = [&](const std::string& suffix, const std::string& config,
                          const std::optional<blockfp8_config_t>& forced) {
      if (!o.const_weights || m > 128) return;
      blockfp8_config_t constw = forced.value_or(blockfp8_config_t{});  // {}: kernel AUTO
      constw.flags = BLOCKFP8_FLAG_CONST_WEIGHTS;
      run_blockfp8("blockfp8_constw" + suffix, config + "+const_weights", constw);
    };
    auto run_plain_and_constw = [&](const std::string& suffix, const std::string& config,
                                    const std::optional<blockfp8_config_t>& forced) {
      run_blockfp8("blockfp8" + suffix, config, forced);
      run_constw(suffix, config, forced);
    };

    // The dispatcher's row first. Where its graphs settled and cuBLASLt's had not (its calls were under
    // --settle-min-us), cuBLASLt is timed again, settled, so that the two are compared in one state.
    const std::string plan = plan_name(m, N, K);
    std::optional<Row> ours = measure_blockfp8("blockfp8", plan, std::nullopt);
    if (lt_row && lt_row->error.empty() && !lt_settled && point_settled()) {
      try {
        const ColdHot t =
            time_cold_hot([&](int c, cudaStream_t s) { ctx.lt->enqueue(c, s); }, ops.copies(), o.replays, st);
        lt_row->cold_us = t.cold_us, lt_row->hot_us = t.hot_us;
        lt_row->note += (lt_row->note.empty() ? "" : "; ") + std::string("timed again, settled with the point");
        lt_us = t.cold_us;
        if (ours) ours->cublaslt_us = lt_us;
      } catch (const CudaError& e) {
        lt_row->error = e.what();
        recover_or_die(st);
      }
    }
    if (lt_row) {
      lt_row->extra.emplace_back("settled", point_settled() ? 1.0 : 0.0);
      emit(ctx, *lt_row);
      rows.push_back(*lt_row);
    }
    if (ours) {
      ours->extra.emplace_back("settled", point_settled() ? 1.0 : 0.0);
      emit(ctx, *ours);
      rows.push_back(*ours);
    }
    run_constw("", plan, std::nullopt);
    if (o.config_rounds > 1) {
      run_config_rounds(ctx, o.configs, o.config_rounds, o.seed ^ uint64_t(m) * 0x9e3779b97f4a7c15ull,
                        [&](const blockfp8_config_t& cfg) {
                          const std::string name = config_name(cfg);
                          return measure_blockfp8("blockfp8:" + name, name, cfg);
                        },
                        rows);
    } else {
      for (const blockfp8_config_t& cfg : o.configs) {
        const std::string name = config_name(cfg);
        run_plain_and_constw(":" + name, name, cfg);
      }
    }
    if (o.paths || o.sweep)
      for (const blockfp8_config_t& cfg : forced_paths(m, o.sweep)) {
        const std::string name = config_name(cfg);
        run_blockfp8("blockfp8:" + name, name, cfg);
      }

    if (bf16a_at(m)) {
      Bf16aInputs in;
      in.ws_bytes = work_slot(m);
      in.scales_offset = q_bytes(m);
      for (int c = 0; c < copies; ++c) {
        uint8_t* xp = xbuf.get<uint8_t>() + x_slot(m) * c;
        fill_bf16(xp, size_t(m * K), tensor_seed(o.seed, 5, c, uint64_t(m) * 7919 + uint64_t(K)), st);
        in.x.push_back(xp);
        in.ws.push_back(wsbuf_a.get<uint8_t>() + work_slot(m) * c);
      }
      BENCH_CUDA(cudaStreamSynchronize(st));
      // Its reference: copy 0 quantised by the library, then the SIMT kernel on X_q (fp32 output).
      std::string qref_note;
      if (o.check) {
        float* s0 = reinterpret_cast<float*>(in.ws[0] + in.scales_offset);
        qref_note = run_reference(
            [&] {
              const blockfp8_status_t s = blockfp8_quantize_1x128(m, K, in.x[0], K, BLOCKFP8_DTYPE_BF16, in.ws[0], K,
                                                                  s0, kb, 1, kBf16aFormat, st);
              if (s != BLOCKFP8_SUCCESS) return s;
              return blockfp8_gemm_ex(m, N, K, in.ws[0], K, s0, kb, 1, ops.b[0], K, ops.b_scale[0], kb, 1,
                                      refqbuf.get(), N, BLOCKFP8_DTYPE_FP32, &simt, st);
            },
            st, "bf16a ");
        if (qref_note.empty()) in.ref = refqbuf.get<float>();
      }
      Row proto = base_row(shape, ops, ctx);
      proto.floor_us = floor_us;
      proto.cublaslt_us = lt_us;
      proto.note = qref_note;
      run_bf16a_backends(ctx, ops, in, plan, proto, rows);
    }
  }
  return rows;
}

int run_floor_gb(Context& ctx) {
  const size_t bytes = round_up(size_t(std::ceil(ctx.opt.floor_gb * 1e9)), size_t(1) << 20);
  std::fprintf(stderr, "floor on one %.3f GB buffer (L2 %.1f MB)\n", bytes / 1e9, ctx.info.l2_bytes / 1e6);
  DeviceBuffer buf(bytes);
  fill_e4m3(buf.get(), bytes, tensor_seed(ctx.opt.seed, 9, 0), ctx.stream);
  BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
  const FloorResult f = measure_floor({buf.get()}, bytes, ctx.info.sm_count, ctx.sink.get<unsigned>(),
                                      ctx.opt.replays, ctx.stream);
  std::printf("| floor variant | µs | TB/s |\n|---|---:|---:|\n");
  for (const FloorTrial& t : f.trials)
    std::printf("| %s | %.1f | %.3f |\n", t.cfg.name().c_str(), t.cold_us, bytes / (t.cold_us * 1e-6) / 1e12);
  const double tbps = bytes / (f.cold_us * 1e-6) / 1e12;
  std::printf("\nbest: %s, %.3f TB/s over %.3f GB (required >= 4.0 TB/s: %s)\n", f.best.name().c_str(), tbps,
              bytes / 1e9, tbps >= 4.0 ? "PASS" : "FAIL");
  Row r;
  r.backend = "floor";
  r.config = f.best.name();
  r.shape_name = "floor_gb";
  r.bytes = double(bytes);
  r.cold_us = f.cold_us;
  r.hot_us = f.hot_us;
  r.copies = 1;
  r.replays = ctx.opt.replays;
  r.extra.push_back({"tbps", tbps});
  for (const FloorTrial& t : f.trials) r.extra.push_back({"trial_us_" + t.cfg.name(), t.cold_us});
  ctx.json.write(r, ctx.info);
  return 0;
}

int run_repeat_check(Context& ctx) {
  Shape primary{2112, 7168, "fused_qkv_a"};
  if (ctx.opt.user_shapes) primary = ctx.opt.shapes.front();
  ctx.hash_outputs = true;
  std::vector<Row> run[2];
  for (int i = 0; i < 2; ++i) {
    ctx.run_tag = {{"repeat", double(i + 1)}};
    run[i] = run_shape(ctx, primary, i + 1, 2);
  }
  std::map<std::string, const Row*> second;
  auto key = [](const Row& r) { return r.backend + "|" + r.config + "|" + std::to_string(r.m); };
  for (const Row& r : run[1]) second[key(r)] = &r;
  std::printf("\n### repeat check: %lld×%lld\n\n", (long long)primary.n, (long long)primary.k);
  std::printf("| backend | M | cold µs #1 | cold µs #2 | Δ %% | output identical |\n|---|---:|---:|---:|---:|---|\n");
  double worst = 0;
  bool all_same = true;
  for (const Row& a : run[0]) {
    auto it = second.find(key(a));
    if (it == second.end() || !a.cold_us || !it->second->cold_us) continue;
    const Row& b = *it->second;
    const double delta = 100.0 * (*b.cold_us - *a.cold_us) / *a.cold_us;
    worst = std::max(worst, std::fabs(delta));
    const bool has_out = a.m > 0;
    const bool same = a.out_hash == b.out_hash;
    if (has_out && !same) all_same = false;
    std::printf("| %s | %s | %.2f | %.2f | %+.1f | %s |\n", a.backend.c_str(),
                a.m > 0 ? std::to_string(a.m).c_str() : "-", *a.cold_us, *b.cold_us, delta,
                has_out ? (same ? "yes" : "NO") : "-");
  }
  std::printf("\nworst cold-time disagreement %.1f %%; outputs %s\n", worst,
              all_same ? "bitwise identical" : "DIFFER between runs");
  return all_same ? 0 : 4;
}

}  // namespace bench
