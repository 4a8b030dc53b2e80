// Facts about the current device that the dispatcher needs, read once per device and cached.
#pragma once

#include "dispatch.h"

namespace blockfp8::detail {

// Fills *info for the current device (first call per device queries the runtime; later calls are
// a cudaGetDevice and an array read). Returns BLOCKFP8_ERROR_CUDA if the runtime fails.
blockfp8_status_t current_device_info(const DeviceInfo** info);

}  // namespace blockfp8::detail
