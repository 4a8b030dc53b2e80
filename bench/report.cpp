#include "report.h"

#include <cmath>
#include <ctime>

namespace bench {
namespace {

std::string num(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string opt_num(const std::optional<double>& v) { return v ? num(*v) : "null"; }

std::string cell(const std::optional<double>& v, const char* fmt) {
  if (!v || !std::isfinite(*v)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, *v);
  return buf;
}

}  // namespace

std::string json_escape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += char(c);
        }
    }
  }
  return out;
}

std::string utc_now_iso8601() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

JsonLines::~JsonLines() {
  if (f_) std::fclose(f_);
}

bool JsonLines::open(const std::string& path) {
  f_ = std::fopen(path.c_str(), "a");
  return f_ != nullptr;
}

void JsonLines::write(const Row& r, const RunInfo& info) {
  if (!f_) return;
  auto str = [](const std::string& s) { return "\"" + json_escape(s) + "\""; };
  std::string line = "{";
  line += "\"backend\":" + str(r.backend);
  line += ",\"config\":" + str(r.config);
  if (!r.runs_as.empty()) line += ",\"runs_as\":" + str(r.runs_as);
  line += ",\"shape\":" + str(r.shape_name);
  line += ",\"N\":" + std::to_string(r.n) + ",\"K\":" + std::to_string(r.k) + ",\"M\":" + std::to_string(r.m);
  line += ",\"cold_us\":" + opt_num(r.cold_us) + ",\"hot_us\":" + opt_num(r.hot_us);
  line += ",\"rel_err\":" + opt_num(r.rel_err) + ",\"max_abs_err\":" + opt_num(r.max_abs_err);
  line += std::string(",\"written\":") + (r.written ? (*r.written ? "true" : "false") : "null");
  line += std::string(",\"identical\":") + (r.identical ? (*r.identical ? "true" : "false") : "null");
  const bool timed = r.cold_us && *r.cold_us > 0;
  line += ",\"tflops\":" + (timed && r.flops > 0 ? num(r.flops / (*r.cold_us * 1e-6) / 1e12) : std::string("null"));
  line += ",\"gbps\":" + (timed && r.bytes > 0 ? num(r.bytes / (*r.cold_us * 1e-6) / 1e9) : std::string("null"));
  line += ",\"bytes\":" + num(r.bytes) + ",\"flops\":" + num(r.flops);
  line += ",\"floor_us\":" + opt_num(r.floor_us) + ",\"cublaslt_us\":" + opt_num(r.cublaslt_us);
  line += ",\"copies\":" + std::to_string(r.copies) + ",\"hot_calls\":" + std::to_string(r.hot_calls);
  line += ",\"replays\":" + std::to_string(r.replays);
  for (const auto& [key, value] : r.extra) line += ",\"" + json_escape(key) + "\":" + num(value);
  line += ",\"error\":" + (r.error.empty() ? std::string("null") : str(r.error));
  line += ",\"note\":" + (r.note.empty() ? std::string("null") : str(r.note));
  line += ",\"commit\":" + str(info.commit) + ",\"gpu\":" + str(info.gpu) + ",\"date\":" + str(info.date);
  line += ",\"sm_count\":" + std::to_string(info.sm_count) + ",\"l2_bytes\":" + std::to_string(info.l2_bytes);
  line += ",\"sm_clock_khz\":" + std::to_string(info.sm_clock_khz) + ",\"settle_ms\":" + num(info.settle_ms);
  line += ",\"mem_clock_khz\":" + std::to_string(info.mem_clock_khz);
  line += ",\"cublaslt_version\":" + std::to_string(info.cublaslt_version);
  line += ",\"blockfp8_version\":" + str(info.blockfp8_version);
  line += "}\n";
  std::fputs(line.c_str(), f_);
  std::fflush(f_);
}

void MarkdownTable::header() const {
  std::printf(
      "| shape | M | backend / config | cold µs | hot µs | TFLOP/s | GB/s | × floor | × cuBLASLt | rel_err |\n"
      "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
  std::fflush(stdout);
}

void MarkdownTable::row(const Row& r) const {
  const std::string shape = std::to_string(r.n) + "×" + std::to_string(r.k) + " " + r.shape_name;
  const std::string m = r.m > 0 ? std::to_string(r.m) : "-";
  std::string who = r.backend;
  if (!r.config.empty() && r.backend.find(':') == std::string::npos) who += " `" + r.config + "`";
  if (!r.error.empty()) {
    std::printf("| %s | %s | %s | error: %s | | | | | | |\n", shape.c_str(), m.c_str(), who.c_str(),
                r.error.c_str());
    std::fflush(stdout);
    return;
  }
  std::optional<double> tflops, gbps, x_floor, x_lt;
  if (r.cold_us && *r.cold_us > 0) {
    if (r.flops > 0) tflops = r.flops / (*r.cold_us * 1e-6) / 1e12;
    if (r.bytes > 0) gbps = r.bytes / (*r.cold_us * 1e-6) / 1e9;
    if (r.floor_us && *r.floor_us > 0) x_floor = *r.cold_us / *r.floor_us;
    if (r.cublaslt_us && *r.cublaslt_us > 0) x_lt = *r.cold_us / *r.cublaslt_us;
  }
  std::string err = cell(r.rel_err, "%.2e");
  if (r.written && !*r.written) err += " UNWRITTEN";
  if (r.identical && !*r.identical) err += " NOT BITWISE quant+gemm";
  std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", shape.c_str(), m.c_str(), who.c_str(),
              cell(r.cold_us, "%.2f").c_str(), cell(r.hot_us, "%.2f").c_str(), cell(tflops, "%.1f").c_str(),
              cell(gbps, "%.0f").c_str(), cell(x_floor, "%.2f").c_str(), cell(x_lt, "%.2f").c_str(), err.c_str());
  std::fflush(stdout);
}

namespace {

std::optional<double> extra(const Row& r, const std::string& key) {
  for (const auto& [k, v] : r.extra)
    if (k == key) return v;
  return std::nullopt;
}

}  // namespace

void print_bf16a_summary(const std::vector<Row>& rows) {
  struct Pair {
    const Row* fused = nullptr;
    const Row* two = nullptr;
  };
  std::vector<std::pair<std::string, Pair>> pairs;  // in the order the points ran
  auto slot = [&](const Row& r) -> Pair& {
    const std::string key = std::to_string(r.n) + "x" + std::to_string(r.k) + "x" + std::to_string(r.m);
    for (auto& [k, p] : pairs)
      if (k == key) return p;
    pairs.push_back({key, Pair{}});
    return pairs.back().second;
  };
  for (const Row& r : rows) {
    if (r.backend == "blockfp8_bf16a") slot(r).fused = &r;
    if (r.backend == "blockfp8_quant_gemm") slot(r).two = &r;
  }
  if (pairs.empty()) return;
  std::printf(
      "\n### bf16 activations: blockfp8_bf16a (blockfp8_gemm_bf16a) vs blockfp8_quant_gemm (quantize_1x128 + "
      "gemm)\n\n"
      "| shape | M | bf16a path | bf16a cold µs | quant_gemm cold µs | bf16a / quant_gemm | bf16a × floor "
      "| quant_gemm × floor | bitwise identical | bf16a rel_err |\n"
      "|---|---:|---|---:|---:|---:|---:|---:|---|---:|\n");
  auto cold = [](const Row* r) -> std::optional<double> {
    if (!r || !r->error.empty() || !r->cold_us || !(*r->cold_us > 0)) return std::nullopt;
    return r->cold_us;
  };
  auto x_floor = [&](const Row* r) -> std::optional<double> {
    const auto c = cold(r);
    if (!c || !r->floor_us || !(*r->floor_us > 0)) return std::nullopt;
    return *c / *r->floor_us;
  };
  for (const auto& [key, p] : pairs) {
    const Row& any = p.fused ? *p.fused : *p.two;
    const std::string shape = std::to_string(any.n) + "×" + std::to_string(any.k) + " " + any.shape_name;
    std::string path = "-";
    if (p.fused) {
      if (const auto ws = extra(*p.fused, "workspace_bytes")) path = *ws == 0 ? "one launch" : "two launches";
    }
    const auto cf = cold(p.fused), cq = cold(p.two);
    std::optional<double> ratio;
    if (cf && cq) ratio = *cf / *cq;
    std::string err = p.fused ? cell(p.fused->rel_err, "%.2e") : "-";
    if (p.fused && p.fused->written && !*p.fused->written) err += " UNWRITTEN";
    std::string errors;
    for (const Row* r : {p.fused, p.two})
      if (r && !r->error.empty()) errors += (errors.empty() ? "" : "; ") + r->backend + ": " + r->error;
    std::string same = errors.empty() ? "-" : "error: " + errors;
    if (p.fused && p.fused->identical) same = *p.fused->identical ? "yes" : "**NO**";
    std::printf("| %s | %lld | %s | %s | %s | %s | %s | %s | %s | %s |\n", shape.c_str(), (long long)any.m,
                path.c_str(), cell(cf, "%.2f").c_str(), cell(cq, "%.2f").c_str(), cell(ratio, "%.3f").c_str(),
                cell(x_floor(p.fused), "%.2f").c_str(), cell(x_floor(p.two), "%.2f").c_str(),
                same.c_str(), err.c_str());
  }
  std::fflush(stdout);
}

}  // namespace bench
