#include "env.h"

#include <cstdlib>

namespace blockfp8::detail {

bool env_switch(const char* var, bool fallback) {
  const char* v = std::getenv(var);
  if (v && v[0] == '0') return false;
  if (v && v[0] == '1') return true;
  return fallback;
}

int env_int(const char* var, int fallback) {
  const char* v = std::getenv(var);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const long x = std::strtol(v, &end, 10);
  return *end == '\0' ? int(x) : fallback;
}

}  // namespace blockfp8::detail
