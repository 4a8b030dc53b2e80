// Where results go: one JSON object per timed point (JSON Lines, flushed per line) and a markdown
// table on stdout. Also the run's environment (GPU, clocks, commit, date) stamped on every line.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bench {

struct RunInfo {
  std::string gpu, commit, date, command;
  int sm_count = 0;
  int64_t l2_bytes = 0;
  int sm_clock_khz = 0, mem_clock_khz = 0;  // peak clocks as the runtime reports them
  int cublaslt_version = 0;
  double settle_ms = 0;  // --settle-ms the run used
  std::string blockfp8_version;
};

// One timed point. Optional numbers print as null in JSON and "-" in the table.
struct Row {
  std::string backend;  // "blockfp8", "blockfp8:<config>", "cublaslt", "floor", "empty",
                        // "blockfp8_bf16a", "blockfp8_quant_gemm"
  std::string config;
  std::string runs_as;  // a forced configuration as the library runs it (blockfp8_config_resolve)
  std::string shape_name;
  int64_t n = 0, k = 0, m = 0;
  std::optional<double> cold_us, hot_us, rel_err, max_abs_err, floor_us, cublaslt_us;
  std::optional<bool> written;
  std::optional<bool> identical;  // bf16-activation backends: blockfp8_bf16a's C == blockfp8_quant_gemm's, bitwise
  double flops = 0, bytes = 0;
  int copies = 0, hot_calls = 0, replays = 0;
  std::string error;   // non-empty: the point could not be measured, and why
  std::string note;
  std::vector<std::pair<std::string, double>> extra;  // additional numeric fields
  uint64_t out_hash = 0;  // FNV-1a of C after the check run (--repeat-check only); not serialised
};

class JsonLines {
 public:
  JsonLines() = default;
  ~JsonLines();
  bool open(const std::string& path);
  void write(const Row& row, const RunInfo& info);

 private:
  std::FILE* f_ = nullptr;
};

class MarkdownTable {
 public:
  void header() const;
  void row(const Row& r) const;
};

// The bf16-activation backends side by side (blockfp8_bf16a against blockfp8_quant_gemm at each
// shape and M of `rows`): a markdown table on stdout; nothing when rows hold neither.
void print_bf16a_summary(const std::vector<Row>& rows);

std::string json_escape(const std::string& s);
std::string utc_now_iso8601();

}  // namespace bench
