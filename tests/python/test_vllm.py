"""vLLM drop-in: signature compatibility and the reversible patch (CPU; a stand-in vllm module tree
is used when vLLM is not installed)."""
import importlib.util
import inspect
import sys
import types

import pytest
import torch

import blockfp8
import blockfp8.vllm as bv
from conftest import FP8

HAVE_VLLM = importlib.util.find_spec("vllm") is not None
EXPECTED = ["A", "B", "As", "Bs", "block_size", "output_dtype"]


def test_signature_matches_vllm():
    sig = inspect.signature(blockfp8.w8a8_block_fp8_matmul)
    assert list(sig.parameters) == EXPECTED
    assert sig.parameters["output_dtype"].default is torch.float16
    if HAVE_VLLM:
        fp8_utils = importlib.import_module(bv.FP8_UTILS)
        for name in bv.NAMES:
            theirs = getattr(fp8_utils, name, None)
            if theirs is not None:
                p = inspect.signature(theirs).parameters
                assert list(p) == EXPECTED, name
                assert p["output_dtype"].default == sig.parameters["output_dtype"].default


@pytest.fixture
def fake_vllm(monkeypatch):
    """vllm.model_executor.layers.quantization.utils.fp8_utils with both function names, plus a
    module that imported one of them by name before install()."""
    if HAVE_VLLM:
        pytest.skip("vLLM is installed: the stand-in would shadow it")
    calls = []

    def original(A, B, As, Bs, block_size, output_dtype=torch.float16):
        calls.append(tuple(A.shape))
        return "original"

    def original_new(A, B, As, Bs, block_size, output_dtype=torch.float16):
        calls.append(("new",) + tuple(A.shape))
        return "original_new"

    parts = bv.FP8_UTILS.split(".")
    for i in range(1, len(parts) + 1):
        monkeypatch.setitem(sys.modules, ".".join(parts[:i]), types.ModuleType(".".join(parts[:i])))
    fp8_utils = sys.modules[bv.FP8_UTILS]
    fp8_utils.w8a8_block_fp8_matmul = original
    fp8_utils.w8a8_triton_block_scaled_mm = original_new
    user = types.ModuleType("vllm.user_of_it")
    user.w8a8_block_fp8_matmul = original
    monkeypatch.setitem(sys.modules, "vllm.user_of_it", user)
    yield types.SimpleNamespace(fp8_utils=fp8_utils, user=user, original=original, original_new=original_new,
                                calls=calls)
    bv.uninstall()


def test_install_uninstall(fake_vllm):
    names = bv.install()
    assert sorted(names) == sorted([f"{bv.FP8_UTILS}.w8a8_block_fp8_matmul", f"{bv.FP8_UTILS}.w8a8_triton_block_scaled_mm",
                                    "vllm.user_of_it.w8a8_block_fp8_matmul"])
    assert bv.is_installed()
    assert fake_vllm.fp8_utils.w8a8_block_fp8_matmul is not fake_vllm.original
    assert fake_vllm.user.w8a8_block_fp8_matmul is fake_vllm.fp8_utils.w8a8_block_fp8_matmul
    assert list(inspect.signature(fake_vllm.fp8_utils.w8a8_block_fp8_matmul).parameters) == EXPECTED
    bv.install(max_m=8)  # re-install replaces, does not stack
    assert fake_vllm.fp8_utils.w8a8_block_fp8_matmul.__wrapped__ is fake_vllm.original
    bv.uninstall()
    assert not bv.is_installed()
    assert fake_vllm.fp8_utils.w8a8_block_fp8_matmul is fake_vllm.original
    assert fake_vllm.fp8_utils.w8a8_triton_block_scaled_mm is fake_vllm.original_new
    assert fake_vllm.user.w8a8_block_fp8_matmul is fake_vllm.original
    with bv.installed(max_m=4):
        assert fake_vllm.fp8_utils.w8a8_block_fp8_matmul.blockfp8_max_m == 4
    assert fake_vllm.fp8_utils.w8a8_block_fp8_matmul is fake_vllm.original
    with pytest.raises(ValueError, match="max_m"):
        bv.install(max_m=-1)


def test_ineligible_calls_fall_through(fake_vllm):
    bv.install()
    f = fake_vllm.fp8_utils.w8a8_block_fp8_matmul
    A = torch.empty(2, 256, dtype=FP8)
    B = torch.empty(64, 256, dtype=FP8)
    As, Bs = torch.empty(2, 2), torch.empty(1, 2)
    assert f(A, B, As, Bs, [128, 128], torch.bfloat16) == "original"          # CPU tensors
    assert f(A.to("meta"), B, As, Bs, [128, 128]) == "original"               # not CUDA
    assert fake_vllm.fp8_utils.w8a8_triton_block_scaled_mm(A, B, As, Bs, [64, 64]) == "original_new"


def test_routing_threshold(fake_vllm, monkeypatch):
    from torch._subclasses.fake_tensor import FakeTensorMode
    monkeypatch.setattr(bv, "_is_hopper", lambda index: True)
    bv.install(max_m=4)
    bv.stats(reset=True)
    f = fake_vllm.fp8_utils.w8a8_block_fp8_matmul
    with FakeTensorMode():
        B = torch.empty(300, 256, dtype=FP8, device="cuda")
        Bs = torch.empty(3, 2, device="cuda")
        A = torch.empty(2, 2, 256, dtype=FP8, device="cuda")   # M = 4: routed to blockfp8
        As = torch.empty(2, 2, 2, device="cuda")
        C = f(A, B, As, Bs, [128, 128], torch.bfloat16)
        assert isinstance(C, torch.Tensor) and C.shape == (2, 2, 300) and C.dtype == torch.bfloat16
        A5 = torch.empty(5, 256, dtype=FP8, device="cuda")      # M = 5 > max_m: stays on the original
        assert f(A5, B, torch.empty(5, 2, device="cuda"), Bs, [128, 128]) == "original"
        A100 = torch.empty(2, 200, dtype=FP8, device="cuda")    # K % 128 != 0: original
        assert f(A100, B, torch.empty(2, 2, device="cuda"), Bs, [128, 128]) == "original"
        assert f(A, B, As, Bs, [128, 64]) == "original"         # other block size: original
    assert fake_vllm.calls == [(5, 256), (2, 200), (2, 2, 256)]
    assert bv.stats(reset=True) == {"blockfp8": 1, "original": 3}
    assert bv.stats() == {"blockfp8": 0, "original": 0}


@pytest.mark.skipif(HAVE_VLLM, reason="vLLM is installed")
def test_install_without_vllm():
    with pytest.raises(ImportError):
        bv.install()
    assert not bv.is_installed()
