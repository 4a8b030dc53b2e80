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
  line += ",\"shape\":" + str(r.shape_name);
  line += ",\"N\":" + std::to_string(r.n) + ",\"K\":" + std::to_string(r.k) + ",\"M\":" + std::to_string(r.m);
  line += ",\"cold_us\":" + opt_num(r.cold_us) + ",\"hot_us\":" + opt_num(r.hot_us);
  line += ",\"rel_err\":" + opt_num(r.rel_err) + ",\"max_abs_err\":" + opt_num(r.max_abs_err);
  line += std::string(",\"written\":") + (r.written ? (*r.written ? "true" : "false") : "null");
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
  line += ",\"sm_clock_khz\":" + std::to_string(info.sm_clock_khz);
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
  std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", shape.c_str(), m.c_str(), who.c_str(),
              cell(r.cold_us, "%.2f").c_str(), cell(r.hot_us, "%.2f").c_str(), cell(tflops, "%.1f").c_str(),
              cell(gbps, "%.0f").c_str(), cell(x_floor, "%.2f").c_str(), cell(x_lt, "%.2f").c_str(), err.c_str());
  std::fflush(stdout);
}

}  // namespace bench
