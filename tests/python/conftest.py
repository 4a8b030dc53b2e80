"""Shared helpers of the Python tests. CPU tests need only the library and torch; GPU tests skip
themselves when torch.cuda.is_available() is False."""
import os
import sys

import pytest

# Dev mode: the package from the source tree when it is not installed.
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import blockfp8  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(_ROOT, "python"))

import torch  # noqa: E402

REPO_ROOT = _ROOT
HEADER = os.path.join(_ROOT, "include", "blockfp8", "blockfp8.h")
FP8 = torch.float8_e4m3fn

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(),
                                   reason="needs a CUDA device (torch.cuda.is_available() is False)")


def is_hopper():
    return torch.cuda.is_available() and torch.cuda.get_device_capability(0) == (9, 0)


requires_hopper = pytest.mark.skipif(not is_hopper(), reason="needs a compute capability 9.0 (Hopper) GPU")


@pytest.fixture
def no_c_call(monkeypatch):
    """Any call into the C library fails the test: for arguments Python must refuse by itself."""
    from blockfp8 import _lib, ops

    def fail():
        raise AssertionError("the C library was called although Python should have refused the call")
    monkeypatch.setattr(_lib, "lib", fail)
    monkeypatch.setattr(ops, "_gemm_c", None)  # the eager path's cached binding: rebound through lib()


def random_inputs(m, n, k, device, a_scale_layout="row", seed=0):
    """Fresh random operands (never zeros): fp8 from randn * s cast to e4m3, positive random scales."""
    g = torch.Generator(device="cpu").manual_seed(seed)
    kb, nb = k // 128, (n + 127) // 128
    a = (torch.randn(m, k, generator=g) * 2.0).to(FP8).to(device)
    b = (torch.randn(n, k, generator=g) * 2.0).to(FP8).to(device)
    a_scale = (torch.rand(m, kb, generator=g) * 0.02 + 0.001).to(device)
    b_scale = (torch.rand(nb, kb, generator=g) * 0.02 + 0.001).to(device)
    if a_scale_layout == "col":  # M-major: strides (1, M), as vLLM's CUTLASS / DeepGEMM paths pass it
        a_scale = a_scale.t().contiguous().t()
        assert a_scale.stride() == (1, m) or m <= 1
    return a, a_scale, b, b_scale


def reference(a, a_scale, b, b_scale):
    """float64 reference of the block-scaled GEMM, on the operands' device."""
    m, k = a.shape
    n = b.shape[0]
    sa = a_scale.double().repeat_interleave(128, dim=1)                                # [M, K]
    sb = b_scale.double().repeat_interleave(128, dim=0)[:n].repeat_interleave(128, dim=1)  # [N, K]
    return (a.double() * sa) @ (b.double() * sb).t()


def rel_err(c, ref):
    return ((c.double() - ref).abs().max() / ref.abs().max()).item()
