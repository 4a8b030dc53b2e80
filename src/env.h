// Diagnostic switches from the environment, for host code on both sides (dispatch and launchers).
#pragma once

namespace blockfp8::detail {

// A diagnostic switch from the environment: "0" or "1" in `var` (first character), else `fallback`.
// Callers keep the answer in a function-local static: read once per process.
bool env_switch(const char* var, bool fallback);
// A diagnostic integer from the environment: `var` parsed as a decimal integer, else `fallback`.
int env_int(const char* var, int fallback);

}  // namespace blockfp8::detail
