"""Python-side host cost of blockfp8.gemm on a machine without a GPU (a script, not a test):
    python3 tests/python/mock_host_overhead.py
    BLOCKFP8_PY=/path/to/other/checkout/python python3 tests/python/mock_host_overhead.py   # compare
CPU tensors stand in for CUDA ones and the C call is a no-op. Patched: Tensor.get_device (a C method
returning a fixed index, so the device checks pass at the cost of a real C method call), the
current-device and raw-stream getters, and the library's fast_gemm. Reported: per-call us of
gemm, gemm(out=), the mock call alone and the output allocation alone; Python side = gemm - mock
call."""
import math
import os
import sys
import time
import types

sys.path.insert(0, os.environ.get("BLOCKFP8_PY") or
                os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import torch  # noqa: E402

import blockfp8  # noqa: E402
from blockfp8 import _lib, ops  # noqa: E402

DEV = 2  # what the patched get_device returns for a 2-D tensor (TensorBase.dim)
torch.Tensor.get_device = torch._C.TensorBase.dim
mock_gemm = lambda *args: 0  # noqa: E731
fake_lib = types.SimpleNamespace(fast_gemm=mock_gemm)
for name, val in (("_get_device", lambda: DEV), ("_stream", abs), ("_raw_stream", abs), ("_current_stream", abs)):
    if hasattr(ops, name):
        setattr(ops, name, val)
_lib.lib = lambda: fake_lib
_lib._lib = fake_lib
if hasattr(ops, "_gemm_c"):
    ops._gemm_c = mock_gemm

g = torch.Generator().manual_seed(0)
m, n, k = 1, 2112, 7168
a = torch.randn(m, k, generator=g).to(torch.float8_e4m3fn)
b = torch.randn(n, k, generator=g).to(torch.float8_e4m3fn)
a_s, b_s = torch.rand(m, k // 128), torch.rand((n + 127) // 128, k // 128)
out = torch.empty(m, n, dtype=torch.bfloat16)
args17 = (m, n, k, a.data_ptr(), k, a_s.data_ptr(), k // 128, 1, b.data_ptr(), k, b_s.data_ptr(), k // 128, 1,
          out.data_ptr(), n, 0, 0)


def per_call_us(fn, n=2000, reps=25):
    for _ in range(200):
        fn()
    best = math.inf
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, time.perf_counter() - t0)
    return best / n * 1e6


assert blockfp8.gemm(a, a_s, b, b_s).shape == (m, n)
view = per_call_us(lambda: a.view(-1))
c = per_call_us(lambda: mock_gemm(*args17))
alloc = per_call_us(lambda: a.new_empty(m, n, dtype=torch.bfloat16))
g1 = per_call_us(lambda: blockfp8.gemm(a, a_s, b, b_s))
g2 = per_call_us(lambda: blockfp8.gemm(a, a_s, b, b_s, out=out))
print(f"us/call: x.view {view:.2f} | mock C call {c:.2f} | alloc {alloc:.2f} | gemm {g1:.2f} "
      f"(python side {g1 - c:.2f}) | gemm(out=) {g2:.2f} (python side {g2 - c:.2f})")
