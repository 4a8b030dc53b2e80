#include "shapes.h"

#include <cstdlib>
#include <sstream>

namespace bench {
namespace {

enum class Split { none, n, k };

struct Layer {
  const char* name;
  int64_t n, k;
  Split split;
};

// (N, K) at TP 1. The aux_* entries are the shapes the project's issue lists without a layer name.
constexpr Layer kLayers[] = {
    {"fused_qkv_a", 2112, 7168, Split::none},    {"kv_a", 576, 7168, Split::none},
    {"q_b", 24576, 1536, Split::n},              {"kv_b", 32768, 512, Split::n},
    {"o_proj", 7168, 16384, Split::k},           {"aux_4096x7168", 4096, 7168, Split::none},
    {"gate_up", 36864, 7168, Split::n},          {"down", 7168, 18432, Split::k},
    {"aux_24576x7168", 24576, 7168, Split::n},   {"aux_12288x7168", 12288, 7168, Split::n},
    {"aux_7168x2048", 7168, 2048, Split::k},     {"aux_4608x7168", 4608, 7168, Split::none},
};

}  // namespace

void add_shape(std::vector<Shape>& shapes, const Shape& s) {
  for (Shape& have : shapes) {
    if (have.n == s.n && have.k == s.k) {
      if (!s.name.empty() && have.name.find(s.name) == std::string::npos)
        have.name += have.name.empty() ? s.name : "|" + s.name;
      return;
    }
  }
  shapes.push_back(s);
}

std::vector<Shape> deepseek_shapes(const std::vector<int>& tps) {
  std::vector<Shape> out;
  for (int tp : tps) {
    if (tp < 1) continue;
    for (const Layer& l : kLayers) {
      Shape s{l.n, l.k, l.name};
      if (l.split == Split::n) {
        if (l.n % tp) continue;
        s.n = l.n / tp;
      } else if (l.split == Split::k) {
        if (l.k % tp) continue;
        s.k = l.k / tp;
      }
      if (l.split != Split::none) s.name += "/tp" + std::to_string(tp);
      if (s.k % 128 != 0 || s.n < 1) continue;
      add_shape(out, s);
    }
  }
  return out;
}

bool parse_shape(const std::string& text, Shape* out) {
  std::string t = text;
  for (char& c : t)
    if (c == 'x' || c == 'X') c = ',';
  std::istringstream in(t);
  long long n = 0, k = 0;
  char comma = 0;
  if (!(in >> n >> comma >> k) || comma != ',' || !(in >> std::ws).eof()) return false;
  if (n < 1 || k < 128 || k % 128 != 0) return false;
  out->n = n;
  out->k = k;
  out->name = "user";
  return true;
}

bool parse_int_list(const std::string& text, std::vector<int64_t>* out) {
  out->clear();
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    char* end = nullptr;
    long long v = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || v < 1) return false;
    out->push_back(v);
  }
  return !out->empty();
}

}  // namespace bench
