// The (N, K) weight shapes the bench sweeps, and the small parsers of the command line's lists.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

struct Shape {
  int64_t n = 0, k = 0;
  std::string name;  // layer name(s) it stands for, e.g. "gate_up/tp4"
};

// DeepSeek-V3/R1 linear layers under tensor parallelism `tps`; tensors split on N or K by the TP degree.
// Duplicates (the same (N, K) reached by different layers or degrees) are merged, keeping the first
// position and joining the names. Splits that leave K not a multiple of 128 or a size not whole are dropped.
std::vector<Shape> deepseek_shapes(const std::vector<int>& tps);

// Appends `s` unless an equal (N, K) is already listed (then its name is merged).
void add_shape(std::vector<Shape>& shapes, const Shape& s);

// "N,K" or "NxK"; false on malformed text or K not a positive multiple of 128.
bool parse_shape(const std::string& text, Shape* out);
// "1,2,4" -> {1, 2, 4}; false on malformed text or a non-positive entry.
bool parse_int_list(const std::string& text, std::vector<int64_t>* out);

}  // namespace bench
