"""CPU tests of blockfp8.quantize_1x128: binding, argument errors, fake/meta shapes and strides,
tracing. No GPU needed."""
import re

import pytest
import torch

import blockfp8
from blockfp8 import _lib, quant
from conftest import FP8, HEADER


def test_binding_matches_header():
    assert _lib.has_symbol("blockfp8_quantize_1x128")
    fn = _lib.lib().blockfp8_quantize_1x128
    assert fn.restype is not None and len(fn.argtypes) == 12
    text = open(HEADER).read()
    body = re.search(r"typedef enum blockfp8_scale_format\s*\{(.*?)\}", text, re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    enum = {m.group(1): int(m.group(2)) for m in re.finditer(r"(BLOCKFP8_\w+)\s*=\s*(\d+)", body)}
    assert enum == {"BLOCKFP8_SCALE_FP32": _lib.SCALE_FP32, "BLOCKFP8_SCALE_UE8M0": _lib.SCALE_UE8M0}


def test_c_argument_statuses():
    # Validated before any CUDA call: no GPU needed. Fake, well-separated device addresses.
    X, Q, S = 1 << 40, 2 << 40, 3 << 40
    q = _lib.lib().blockfp8_quantize_1x128

    def call(m=4, k=256, x=X, ldx=256, dt=_lib.DTYPE_BF16, xq=Q, ldq=256, s=S, ssm=2, ssk=1, fmt=0):
        return q(m, k, x, ldx, dt, xq, ldq, s, ssm, ssk, fmt, None)

    assert call(k=200, ldx=200, ldq=200) == _lib.ERROR_K_NOT_MULTIPLE_OF_128
    assert call(m=-1) == _lib.ERROR_INVALID_SHAPE
    assert call(x=None) == _lib.ERROR_NULL_POINTER
    assert call(s=None) == _lib.ERROR_NULL_POINTER
    assert call(ldx=255) == _lib.ERROR_INVALID_STRIDE
    assert call(ssk=0) == _lib.ERROR_INVALID_STRIDE
    assert call(x=X + 1) == _lib.ERROR_MISALIGNED
    assert call(s=S + 2) == _lib.ERROR_MISALIGNED
    assert call(dt=5) == _lib.ERROR_INVALID_DTYPE
    assert call(fmt=2) == _lib.ERROR_INVALID_VALUE
    assert call(xq=X) == _lib.ERROR_ALIASING
    assert call(m=0, x=None, xq=None, s=None) == _lib.SUCCESS


BAD = [
    ("dtype_int8", lambda: (torch.zeros(4, 256, dtype=torch.int8), "fp32"), TypeError, r"x must have dtype"),
    ("dtype_fp8", lambda: (torch.zeros(4, 256, dtype=FP8), "fp32"), TypeError, r"x must have dtype"),
    ("dtype_fp64", lambda: (torch.zeros(4, 256, dtype=torch.float64), "fp32"), TypeError, r"must have dtype"),
    ("k_not_128", lambda: (torch.zeros(4, 200, dtype=torch.bfloat16), "fp32"), ValueError, r"multiple of 128"),
    ("k_zero", lambda: (torch.zeros(4, 0, dtype=torch.bfloat16), "fp32"), ValueError, r"multiple of 128"),
    ("scalar", lambda: (torch.tensor(1.0), "fp32"), ValueError, r"\[\.\.\., K\]"),
    ("k_stride", lambda: (torch.zeros(4, 512, dtype=torch.bfloat16)[:, ::2], "fp32"), ValueError, r"contiguous along K"),
    ("row_overlap", lambda: (torch.zeros(512, dtype=torch.bfloat16).as_strided((4, 256), (64, 1)), "fp32"),
     ValueError, r"row stride must be >= K"),
    ("not_flattenable", lambda: (torch.zeros(4, 5, 256, dtype=torch.bfloat16).transpose(0, 1), "fp32"),
     ValueError, r"flattenable without a copy"),
    ("format", lambda: (torch.zeros(4, 256, dtype=torch.bfloat16), "e8m0"), ValueError, r"scale_format must be"),
    ("format_int", lambda: (torch.zeros(4, 256, dtype=torch.bfloat16), 1), ValueError, r"scale_format must be"),
    ("not_tensor", lambda: ([1.0] * 128, "fp32"), TypeError, r"x must be a torch.Tensor"),
    ("cpu", lambda: (torch.zeros(4, 256, dtype=torch.bfloat16), "fp32"), ValueError, r"x must be a CUDA tensor"),
]


@pytest.mark.parametrize("name,make,exc,pattern", BAD, ids=[c[0] for c in BAD])
def test_argument_errors(no_c_call, name, make, exc, pattern):
    x, fmt = make()
    with pytest.raises(exc, match=pattern):
        blockfp8.quantize_1x128(x, scale_format=fmt)


# The same rules on meta tensors, but for the cases that cannot reach the check there: a non-tensor and
# a CPU tensor have no meta form, and an int scale_format is refused by the operator's schema first.
TRACE_BAD = [c for c in BAD if c[0] not in ("format_int", "not_tensor", "cpu")]


@pytest.mark.parametrize("name,make,exc,pattern", TRACE_BAD, ids=[c[0] for c in TRACE_BAD])
def test_argument_errors_at_trace_time(name, make, exc, pattern):
    x, fmt = make()
    xm = torch.empty_strided(x.shape, x.stride(), dtype=x.dtype, device="meta")
    with pytest.raises(exc, match=pattern):
        blockfp8.quantize_1x128(xm, scale_format=fmt)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32], ids=str)
@pytest.mark.parametrize("lead", [(), (1,), (5,), (2, 3), (0,), (0, 4)])
@pytest.mark.parametrize("col", [False, True])
def test_meta_shapes(dtype, lead, col):
    k = 384
    x = torch.empty(*lead, k, dtype=dtype, device="meta")
    for fmt in ("fp32", "ue8m0"):
        q, s = blockfp8.quantize_1x128(x, scale_format=fmt, column_major_scales=col)
        assert q.shape == x.shape and q.dtype == FP8 and q.is_contiguous()
        assert s.shape == (*lead, 3) and s.dtype == torch.float32
        m = 1
        for d in lead:
            m *= d
        s2 = s.view(m, 3)
        if col and m > 1:
            assert s2.stride() == (1, (m + 3) // 4 * 4)  # TMA-aligned
        elif m > 1:
            assert s2.stride() == (3, 1)


def test_fake_tensor_mode_cuda_feeds_gemm():
    from torch._subclasses.fake_tensor import FakeTensorMode
    with FakeTensorMode():
        x = torch.empty(7, 256, dtype=torch.bfloat16, device="cuda")
        b = torch.empty(200, 256, dtype=FP8, device="cuda")
        bs = torch.empty(2, 2, device="cuda")
        for col in (False, True):
            q, s = blockfp8.quantize_1x128(x, "ue8m0", col)
            assert q.device.type == "cuda" and s.device.type == "cuda"
            c = blockfp8.gemm(q, s, b, bs)
            assert c.shape == (7, 200)


def test_opcheck_meta():
    x = torch.empty(5, 256, dtype=torch.bfloat16, device="meta")
    torch.library.opcheck(torch.ops.blockfp8.quantize_1x128.default, (x, "fp32", False))
    torch.library.opcheck(torch.ops.blockfp8.quantize_1x128.default, (x, "ue8m0", True))


def test_make_fx_records_the_op():
    from torch.fx.experimental.proxy_tensor import make_fx
    x = torch.empty(5, 256, dtype=torch.float16, device="meta")
    g = make_fx(lambda x: blockfp8.quantize_1x128(x, "ue8m0"), tracing_mode="fake")(x)
    assert "torch.ops.blockfp8.quantize_1x128.default" in g.code


def test_compile_fullgraph_meta():
    torch._dynamo.reset()

    def f(x, b, bs):
        q, s = blockfp8.quantize_1x128(x, column_major_scales=True)
        return blockfp8.gemm(q, s, b, bs)

    cf = torch.compile(f, fullgraph=True, backend="aot_eager", dynamic=True)
    b = torch.empty(200, 256, dtype=FP8, device="meta")
    bs = torch.empty(2, 2, device="meta")
    for m in (1, 5, 17):
        x = torch.empty(m, 256, dtype=torch.bfloat16, device="meta")
        assert cf(x, b, bs).shape == (m, 200)


def test_exported_names():
    assert blockfp8.quantize_1x128 is quant.quantize_1x128
    assert hasattr(torch.ops.blockfp8, "quantize_1x128")
