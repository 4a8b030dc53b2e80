"""CPU tests of blockfp8.gemm's eager fast path (ops.gemm) against the checked path (ops._gemm_eager).

No GPU here, so CPU tensors stand in for CUDA ones: Tensor.get_device, the current-device and
raw-stream getters and the C entry are patched (the `fake_cuda` fixture), and the C entry records
the 17 arguments it would have been given. What is checked:
  - the fast path passes C exactly what the checked path passes, for every layout it takes;
  - every call it does not take (strided operands, another device, M == 0, a broken rule) goes to
    the checked path, which raises the named error; a C status is raised, never swallowed;
  - compile, tracing and dispatch modes still see the registered operator (fake shapes included).
"""
import pytest
import torch

import blockfp8
from blockfp8 import _lib, ops
from conftest import FP8

STREAM = 0x5EED  # what the patched raw-stream getter returns


class Recorder:
    """Stands in for the C entry: records each call's arguments, returns `status`."""

    def __init__(self):
        self.calls, self.status = [], 0

    def __call__(self, *args):
        self.calls.append(args)
        return self.status


@pytest.fixture
def fake_cuda(monkeypatch):
    """CPU tensors look like tensors on cuda:0, the current device; the C call is recorded."""
    rec = Recorder()
    monkeypatch.setattr(torch.Tensor, "get_device", lambda self: 0 if self.device.type == "cpu" else -1)
    monkeypatch.setattr(ops, "_get_device", lambda: 0)
    monkeypatch.setattr(ops, "_stream", lambda index: STREAM + index)
    monkeypatch.setattr(ops, "_gemm_c", rec)
    routed = []
    real_routed = ops._gemm_routed

    def spy(*args):
        routed.append(args)
        return real_routed(*args)
    monkeypatch.setattr(ops, "_gemm_routed", spy)
    rec.routed = routed
    return rec


def inputs(m=3, n=200, k=256, a_scale_layout="row", seed=0):
    g = torch.Generator().manual_seed(seed)
    a = torch.randn(m, k, generator=g).to(FP8)
    b = torch.randn(n, k, generator=g).to(FP8)
    a_scale = torch.rand(m, k // 128, generator=g) + 0.5
    b_scale = torch.rand((n + 127) // 128, k // 128, generator=g) + 0.5
    if a_scale_layout == "col":
        a_scale = a_scale.t().contiguous().t()
    return a, a_scale, b, b_scale


def _both(rec, a, a_scale, b, b_scale, out):
    """C arguments from the public function and from the checked path, for the same out."""
    r1 = blockfp8.gemm(a, a_scale, b, b_scale, out=out)
    r2 = ops._gemm_eager(a, a_scale, b, b_scale, None, out)
    assert r1 is out and r2 is out
    return rec.calls[-2], rec.calls[-1]


FAST_CASES = {
    "dense": lambda: (*inputs(), torch.empty(3, 200, dtype=torch.bfloat16)),
    "a_scale_col_major": lambda: (*inputs(a_scale_layout="col"), torch.empty(3, 200, dtype=torch.float16)),
    "m1_row_of_wider_a": lambda: (inputs(m=4, k=512)[0][1:2, :256], *inputs(m=1)[1:], torch.empty(1, 200)),
    "n1": lambda: (*inputs(n=1), torch.empty(3, 1, dtype=torch.bfloat16)),
    "b_scale_broadcast": lambda: (*inputs()[:3], inputs()[3][:, :1].expand(-1, 2), torch.empty(3, 200)),
    "m1_n1_k128": lambda: (*inputs(m=1, n=1, k=128), torch.empty(1, 1, dtype=torch.bfloat16)),
}


@pytest.mark.parametrize("case", list(FAST_CASES))
def test_fast_path_passes_what_the_checked_path_passes(fake_cuda, case):
    a, a_scale, b, b_scale, out = FAST_CASES[case]()
    fast, checked = _both(fake_cuda, a, a_scale, b, b_scale, out)
    assert fast == checked
    assert fast[-1] == STREAM and fake_cuda.routed == []  # the fast path took it


ROUTED_CASES = {
    "a_row_stride": lambda: (inputs(k=512)[0][:, :256], *inputs()[1:], torch.empty(3, 200)),
    "b_row_stride": lambda: (*inputs()[:2], inputs(k=512)[2][:, :256], inputs()[3], torch.empty(3, 200)),
    "out_row_stride": lambda: (*inputs(), torch.empty(3, 216, dtype=torch.bfloat16)[:, :200]),
}


@pytest.mark.parametrize("case", list(ROUTED_CASES))
def test_strided_operands_take_the_checked_path(fake_cuda, case):
    a, a_scale, b, b_scale, out = ROUTED_CASES[case]()
    fast, checked = _both(fake_cuda, a, a_scale, b, b_scale, out)
    assert fast == checked and len(fake_cuda.routed) == 1
    assert checked[4] == a.stride(0) and checked[9] == b.stride(0) and checked[14] == out.stride(0)


def test_functional_output(fake_cuda):
    a, a_scale, b, b_scale = inputs()
    for dtype, code in ((torch.bfloat16, _lib.DTYPE_BF16), (torch.float16, _lib.DTYPE_FP16),
                        (torch.float32, _lib.DTYPE_FP32)):
        c = blockfp8.gemm(a, a_scale, b, b_scale, out_dtype=dtype)
        assert c.shape == (3, 200) and c.dtype == dtype and c.is_contiguous()
        args = fake_cuda.calls[-1]
        assert args[13] == c.data_ptr() and args[14] == 200 and args[15] == code
        assert args[:13] == (3, 200, 256, a.data_ptr(), 256, a_scale.data_ptr(), 2, 1, b.data_ptr(), 256,
                             b_scale.data_ptr(), 2, 1)
    assert fake_cuda.routed == []


def test_m_zero_takes_the_checked_path(fake_cuda):
    a, a_scale, b, b_scale = inputs(m=0)
    c = blockfp8.gemm(a, a_scale, b, b_scale)
    assert c.shape == (0, 200) and len(fake_cuda.routed) == 1


def test_other_device_takes_the_guarded_path(fake_cuda, monkeypatch):
    # The tensors' device is not the current one: the checked path switches device around the call.
    monkeypatch.setattr(ops, "_get_device", lambda: 1)
    entered = []

    class Guard:
        def __init__(self, index):
            entered.append(index)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False
    monkeypatch.setattr(torch.cuda, "device", Guard)
    a, a_scale, b, b_scale = inputs()
    blockfp8.gemm(a, a_scale, b, b_scale)
    assert entered == [0] and len(fake_cuda.routed) == 1 and fake_cuda.calls[-1][-1] == STREAM


@pytest.mark.parametrize("which", ["a_scale", "b", "b_scale", "out"])
def test_split_devices_name_the_argument(fake_cuda, monkeypatch, which):
    a, a_scale, b, b_scale = inputs()
    args = dict(a=a, a_scale=a_scale, b=b, b_scale=b_scale, out=torch.empty(3, 200))
    odd = args[which]
    monkeypatch.setattr(torch.Tensor, "get_device", lambda self: 1 if self is odd else 0)
    monkeypatch.setattr(torch.Tensor, "device", property(lambda self: torch.device("cuda", self.get_device())))
    with pytest.raises(ValueError, match=rf"one CUDA device; a is on cuda:0, {which} on cuda:1"):
        blockfp8.gemm(**args)
    assert fake_cuda.calls == []


# Each broken rule, with the error the checked path must raise for it.
BROKEN_RULES = {
    "a_dtype": (TypeError, "a must have dtype"),
    "k_mismatch": (ValueError, "must have the same K"),
    "a_scale_shape": (ValueError, "a_scale must have shape"),
    "b_scale_shape": (ValueError, "b_scale must have shape"),
    "out_dtype": (TypeError, "out_dtype must be"),
    "out_shape": (ValueError, "out must have shape"),
}


@pytest.mark.parametrize("bad", list(BROKEN_RULES))
def test_broken_rules_are_named_by_the_checked_path(fake_cuda, bad):
    a, a_scale, b, b_scale = inputs()
    kw = {}
    if bad == "a_dtype":
        a = a.to(torch.bfloat16)
    elif bad == "k_mismatch":
        b = inputs(k=384)[2]
    elif bad == "a_scale_shape":
        a_scale = a_scale[:, :1]
    elif bad == "b_scale_shape":
        b_scale = b_scale[:1]
    elif bad == "out_dtype":
        kw["out_dtype"] = torch.float64
    else:
        kw["out"] = torch.empty(200, 3, dtype=torch.bfloat16)
    exc, pattern = BROKEN_RULES[bad]
    with pytest.raises(exc, match=pattern):
        blockfp8.gemm(a, a_scale, b, b_scale, **kw)
    assert fake_cuda.calls == [] and len(fake_cuda.routed) == 1


def test_c_status_is_raised(fake_cuda):
    fake_cuda.status = _lib.ERROR_ALIASING
    a, a_scale, b, b_scale = inputs()
    for out in (None, torch.empty(3, 200)):
        with pytest.raises(blockfp8.BlockFP8Error) as ei:
            blockfp8.gemm(a, a_scale, b, b_scale, out=out)
        assert ei.value.status == _lib.ERROR_ALIASING
        msg = str(ei.value)
        assert "BLOCKFP8_ERROR_ALIASING" in msg and "blockfp8.gemm(M=3, N=200, K=256) on cuda:0" in msg
    assert fake_cuda.routed == []


# ---------------------------------------------------------------------------------------------
# The registered operator's route: modes and tracing must see torch.ops.blockfp8.gemm
# ---------------------------------------------------------------------------------------------

def test_fake_tensor_mode_uses_the_fake_impl(fake_cuda):
    from torch._subclasses.fake_tensor import FakeTensorMode
    with FakeTensorMode():
        a, a_scale, b, b_scale = (torch.empty_like(t) for t in inputs(m=5))
        c = blockfp8.gemm(a, a_scale, b, b_scale, out_dtype=torch.float16)
        assert c.shape == (5, 200) and c.dtype == torch.float16
        out = torch.empty(5, 200)
        assert blockfp8.gemm(a, a_scale, b, b_scale, out=out) is out
    assert fake_cuda.calls == []


def test_real_tensors_under_a_dispatch_mode_take_the_operator(fake_cuda):
    from torch.utils._python_dispatch import TorchDispatchMode

    class Log(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.ops = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            self.ops.append(str(func))
            return func(*args, **(kwargs or {}))
    a, a_scale, b, b_scale = inputs()
    with Log() as log:
        c = blockfp8.gemm(a, a_scale, b, b_scale)
    assert c.shape == (3, 200) and "blockfp8.gemm.default" in log.ops
    assert len(fake_cuda.calls) == 1  # the operator's real implementation made the one C call


def test_make_fx_real_records_the_operator(fake_cuda):
    from torch.fx.experimental.proxy_tensor import make_fx
    g = make_fx(lambda a, s, b, t: blockfp8.gemm(a, s, b, t), tracing_mode="real")(*inputs())
    assert "torch.ops.blockfp8.gemm.default" in g.code


def test_compile_traces_the_operator_on_real_tensors(fake_cuda):
    torch._dynamo.reset()
    graphs = []

    def backend(gm, example_inputs):
        graphs.append(gm.code)
        return gm.forward

    f = torch.compile(lambda a, s, b, t: blockfp8.gemm(a, s, b, t, out_dtype=torch.float32) * 2,
                      fullgraph=True, backend=backend)
    a, a_scale, b, b_scale = inputs()
    c = f(a, a_scale, b, b_scale)
    assert c.shape == (3, 200) and c.dtype == torch.float32
    assert len(graphs) == 1 and "blockfp8.gemm" in graphs[0]
    assert len(fake_cuda.calls) == 1  # at run time, through the operator
