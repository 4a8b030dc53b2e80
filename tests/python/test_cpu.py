"""CPU tests: import, library loading, statuses, argument checking, fake/meta shapes, tracing.

No GPU needed (CI runs these). They need the built library: installed in the package, found in the
source tree's build*/ directories, or named by $BLOCKFP8_LIBRARY.
"""
import ctypes
import re

import pytest
import torch

import blockfp8
from blockfp8 import _lib, ops
from conftest import FP8, HEADER

M, N, K = 3, 200, 256  # N not a multiple of 64 or 128 on purpose


def meta_inputs(m=M, n=N, k=K, device="meta"):
    a = torch.empty(m, k, dtype=FP8, device=device)
    b = torch.empty(n, k, dtype=FP8, device=device)
    a_scale = torch.empty(m, k // 128, device=device)
    b_scale = torch.empty((n + 127) // 128, k // 128, device=device)
    return a, a_scale, b, b_scale


# ---------------------------------------------------------------------------------------------
# Import and library
# ---------------------------------------------------------------------------------------------

def test_import():
    assert blockfp8.__version__ == "0.1.0"
    assert callable(blockfp8.gemm) and callable(blockfp8.w8a8_block_fp8_matmul)
    assert hasattr(torch.ops.blockfp8, "gemm") and hasattr(torch.ops.blockfp8, "gemm_out")


def test_library_loads():
    path = blockfp8.library_path()
    assert path.endswith(".so") or ".so." in path
    assert blockfp8.version().startswith("0.1")
    for name in _lib._SIGNATURES:
        fn = getattr(_lib.lib(), name)
        assert fn.restype is not None, name
        assert fn.argtypes is not None, name


def test_library_env_override_error(monkeypatch):
    monkeypatch.setattr(_lib, "_lib", None)
    monkeypatch.setenv("BLOCKFP8_LIBRARY", "/nonexistent/libblockfp8.so")
    with pytest.raises(OSError, match="nonexistent"):
        _lib.lib()


def _header_enum(name):
    text = open(HEADER).read()
    body = re.search(r"typedef enum " + name + r"\s*\{(.*?)\}", text, re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    out = {}
    for m in re.finditer(r"(BLOCKFP8_\w+)\s*=\s*(\d+)", body):
        out[m.group(1)] = int(m.group(2))
    return out


def test_status_table_matches_header():
    header = _header_enum("blockfp8_status")
    assert header == {name: code for code, name in enumerate(_lib.STATUS_NAMES)}
    dtypes = _header_enum("blockfp8_dtype")
    assert dtypes == {"BLOCKFP8_DTYPE_BF16": _lib.DTYPE_BF16, "BLOCKFP8_DTYPE_FP16": _lib.DTYPE_FP16,
                      "BLOCKFP8_DTYPE_FP32": _lib.DTYPE_FP32}
    kernels = _header_enum("blockfp8_kernel")
    assert kernels == {"BLOCKFP8_KERNEL_AUTO": _lib.KERNEL_AUTO, "BLOCKFP8_KERNEL_SWAPAB_SPLITK": _lib.KERNEL_SWAPAB_SPLITK,
                       "BLOCKFP8_KERNEL_SIMT": _lib.KERNEL_SIMT, "BLOCKFP8_KERNEL_TILED": _lib.KERNEL_TILED,
                       "BLOCKFP8_KERNEL_WARP_MMA": _lib.KERNEL_WARP_MMA}


def test_config_struct_matches_header():
    text = open(HEADER).read()
    body = re.search(r"typedef struct blockfp8_config\s*\{(.*?)\}", text, re.S).group(1)
    fields = re.findall(r"int32_t\s+(\w+);", body)
    assert fields == [f for f, _ in _lib.Config._fields_]


def test_every_header_function_is_bound():
    text = re.sub(r"/\*.*?\*/", "", open(HEADER).read(), flags=re.S)
    protos = re.findall(r"BLOCKFP8_API\s+[\w\s\*]+?\b(blockfp8_\w+)\s*\((.*?)\)\s*;", text, re.S)
    assert protos, "no prototypes found in the header"
    bound = dict(_lib._SIGNATURES, **_lib._OPTIONAL_SIGNATURES)
    for name, params in protos:
        assert name in bound, f"{name} is in blockfp8.h but not bound in blockfp8/_lib.py"
        params = params.strip()
        n = 0 if params in ("", "void") else params.count(",") + 1
        assert len(bound[name][0]) == n, f"{name}: {n} parameters in the header, {len(bound[name][0])} argtypes"


def test_status_strings():
    strings = [blockfp8.status_string(code) for code in range(len(_lib.STATUS_NAMES))]
    assert all(s for s in strings)
    assert len(set(strings)) == len(strings)
    assert isinstance(blockfp8.status_string(12345), str)  # unknown code: no crash


def test_error_carries_status():
    e = blockfp8.BlockFP8Error(_lib.ERROR_K_NOT_MULTIPLE_OF_128, "blockfp8_gemm")
    assert isinstance(e, RuntimeError)
    assert e.status == 3 and e.name == "BLOCKFP8_ERROR_K_NOT_MULTIPLE_OF_128"
    assert e.message == blockfp8.status_string(3)
    assert "BLOCKFP8_ERROR_K_NOT_MULTIPLE_OF_128" in str(e) and "blockfp8_gemm" in str(e)
    assert blockfp8.BlockFP8Error(99).name == "UNKNOWN_STATUS_99"
    _lib.check(0)
    with pytest.raises(blockfp8.BlockFP8Error):
        _lib.check(_lib.ERROR_CUDA)


def test_c_status_is_raised_not_swallowed():
    # An invalid shape straight into C: whatever C checks first, it must not succeed.
    status = _lib.lib().blockfp8_gemm(-1, 0, 100, None, 0, None, 0, 0, None, 0, None, 0, 0, None, 0, 0, None)
    assert status != _lib.SUCCESS
    with pytest.raises(blockfp8.BlockFP8Error) as ei:
        _lib.check(status, "blockfp8_gemm")
    assert ei.value.status == status
    status = _lib.lib().blockfp8_gemm_plan(1, 1, 128, None)  # NULL out-parameter
    assert status != _lib.SUCCESS
    assert _lib.lib().blockfp8_config_resolve(1, 1, 128, None) == _lib.ERROR_INVALID_VALUE


def test_resolve_checks_the_shape_before_the_device():
    # Shape errors need no GPU, so CI sees them; the caller's Config is left as it was.
    cfg = blockfp8.Config(_lib.KERNEL_TILED)
    with pytest.raises(blockfp8.BlockFP8Error) as ei:
        blockfp8.resolve(4, 2112, 100, cfg)
    assert ei.value.name == "BLOCKFP8_ERROR_K_NOT_MULTIPLE_OF_128" and "blockfp8_config_resolve" in str(ei.value)
    assert cfg.kernel == _lib.KERNEL_TILED and cfg.weight_rows == 0


def test_config_name():
    name = blockfp8.config_name(blockfp8.Config(_lib.KERNEL_SIMT, 0, 0, 0))
    assert "simt" in name.lower()
    name = blockfp8.config_name(blockfp8.Config(_lib.KERNEL_SWAPAB_SPLITK, 16, 4, 0))
    assert name and name.isprintable()


# ---------------------------------------------------------------------------------------------
# Argument checking: raised in Python, before any C call
# ---------------------------------------------------------------------------------------------

def _cpu():
    return meta_inputs(device="cpu")


def _case(**over):
    a, a_scale, b, b_scale = _cpu()
    args = dict(a=a, a_scale=a_scale, b=b, b_scale=b_scale)
    args.update(over)
    return args


BAD_CASES = [
    ("a_dtype", lambda: _case(a=torch.empty(M, K, dtype=torch.bfloat16)), TypeError, r"\ba must have dtype torch.float8_e4m3fn"),
    ("a_e5m2", lambda: _case(a=torch.empty(M, K, dtype=torch.float8_e5m2)), TypeError, r"\ba must have dtype"),
    ("b_dtype", lambda: _case(b=torch.empty(N, K, dtype=torch.float16)), TypeError, r"\bb must have dtype torch.float8_e4m3fn"),
    ("a_scale_dtype", lambda: _case(a_scale=torch.empty(M, K // 128, dtype=torch.float16)), TypeError, r"a_scale must have dtype torch.float32"),
    ("b_scale_dtype", lambda: _case(b_scale=torch.empty(2, K // 128, dtype=torch.float64)), TypeError, r"b_scale must have dtype torch.float32"),
    ("a_rank", lambda: _case(a=torch.empty(1, M, K, dtype=FP8)), ValueError, r"\ba must be 2-D"),
    ("b_rank", lambda: _case(b=torch.empty(N * K, dtype=FP8)), ValueError, r"\bb must be 2-D"),
    ("k_mismatch", lambda: _case(b=torch.empty(N, 2 * K, dtype=FP8)), ValueError, r"same K"),
    ("k_not_128", lambda: _case(a=torch.empty(M, 200, dtype=FP8), b=torch.empty(N, 200, dtype=FP8)), ValueError, r"multiple of 128"),
    ("n_zero", lambda: _case(b=torch.empty(0, K, dtype=FP8), b_scale=torch.empty(0, K // 128)), ValueError, r"N >= 1"),
    ("a_scale_shape", lambda: _case(a_scale=torch.empty(M, K // 128 + 1)), ValueError, r"a_scale must have shape \[M, K/128\]"),
    ("a_scale_transposed", lambda: _case(a_scale=torch.empty(K // 128, M)), ValueError, r"a_scale must have shape"),
    ("b_scale_shape", lambda: _case(b_scale=torch.empty(1, K // 128)), ValueError, r"b_scale must have shape \[ceil\(N/128\), K/128\] = \[2, 2\]"),
    ("a_k_stride", lambda: _case(a=torch.empty(M, 2 * K, dtype=FP8)[:, ::2]), ValueError, r"\ba must be contiguous along K"),
    ("b_k_stride", lambda: _case(b=torch.empty(K, N, dtype=FP8).t()), ValueError, r"\bb must be contiguous along K"),
    ("a_rows_overlap", lambda: _case(a=torch.empty(2 * K, dtype=FP8).as_strided((M, K), (64, 1))), ValueError, r"a's row stride must be >= K"),
    ("b_broadcast_rows", lambda: _case(b=torch.empty(1, K, dtype=FP8).expand(N, K)), ValueError, r"b's row stride must be >= K"),
    ("not_tensor", lambda: _case(a_scale=[1.0]), TypeError, r"a_scale must be a torch.Tensor"),
    ("cpu", lambda: _case(), ValueError, r"\ba must be a CUDA tensor"),
]


@pytest.mark.parametrize("name,make,exc,pattern", BAD_CASES, ids=[c[0] for c in BAD_CASES])
def test_argument_errors(no_c_call, name, make, exc, pattern):
    with pytest.raises(exc, match=pattern):
        blockfp8.gemm(**make())


def test_out_dtype_error(no_c_call):
    with pytest.raises(TypeError, match="out_dtype must be"):
        blockfp8.gemm(*_cpu(), out_dtype=torch.int8)
    with pytest.raises(TypeError, match="out_dtype must be"):
        blockfp8.gemm(*meta_inputs(), out_dtype=torch.float64)  # also at trace time (fake impl)


OUT_CASES = [
    ("dtype", lambda: torch.empty(M, N, dtype=torch.float64), TypeError, r"out must have dtype"),
    ("shape", lambda: torch.empty(N, M, dtype=torch.bfloat16), ValueError, r"out must have shape \[M, N\] = \[3, 200\]"),
    ("n_stride", lambda: torch.empty(N, M, dtype=torch.bfloat16).t(), ValueError, r"out must be contiguous along N"),
    ("row_stride", lambda: torch.empty(2 * N, dtype=torch.bfloat16).as_strided((M, N), (8, 1)), ValueError, r"out's row stride"),
    ("cpu", lambda: torch.empty(M, N, dtype=torch.bfloat16), ValueError, r"\ba must be a CUDA tensor"),
]


@pytest.mark.parametrize("name,make,exc,pattern", OUT_CASES, ids=[c[0] for c in OUT_CASES])
def test_out_errors(no_c_call, name, make, exc, pattern):
    with pytest.raises(exc, match=pattern):
        blockfp8.gemm(*_cpu(), out=make())


@pytest.mark.parametrize("name,make,exc,pattern", BAD_CASES[:-2], ids=[c[0] for c in BAD_CASES[:-2]])
def test_argument_errors_at_trace_time(name, make, exc, pattern):
    # The same rules in the fake implementation: meta tensors go through the registered operator.
    def to_meta(v):  # keep the strides (Tensor.to would not)
        if not isinstance(v, torch.Tensor):
            return v
        return torch.empty_strided(v.shape, v.stride(), dtype=v.dtype, device="meta")
    args = {k: to_meta(v) for k, v in make().items()}
    with pytest.raises(exc, match=pattern):
        blockfp8.gemm(**args)


BLOCK_CASES = [([64, 128], ValueError), ([128, 64], ValueError), ([128], ValueError), ((128, 128, 1), ValueError),
               (None, TypeError), (128, TypeError)]


@pytest.mark.parametrize("block_size,exc", BLOCK_CASES, ids=[repr(c[0]) for c in BLOCK_CASES])
def test_block_size_errors(no_c_call, block_size, exc):
    a, a_scale, b, b_scale = _cpu()
    with pytest.raises(exc, match="block_size"):
        blockfp8.w8a8_block_fp8_matmul(a, b, a_scale, b_scale, block_size, torch.bfloat16)


def test_w8a8_argument_errors(no_c_call):
    a, a_scale, b, b_scale = _cpu()
    with pytest.raises(ValueError, match=r"As must have shape A.shape\[:-1\]"):
        blockfp8.w8a8_block_fp8_matmul(a, b, a_scale[:2], b_scale, [128, 128], torch.bfloat16)
    a3 = torch.empty(4, 5, K, dtype=FP8).transpose(0, 1)  # [5, 4, K] not flattenable without a copy
    as3 = torch.empty(5, 4, K // 128)
    with pytest.raises(ValueError, match="flattenable without a copy"):
        blockfp8.w8a8_block_fp8_matmul(a3, b, as3, b_scale, [128, 128], torch.bfloat16)


# ---------------------------------------------------------------------------------------------
# Fake / meta implementations
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("out_dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_meta_shapes(out_dtype):
    a, a_scale, b, b_scale = meta_inputs()
    c = blockfp8.gemm(a, a_scale, b, b_scale, out_dtype=out_dtype)
    assert c.shape == (M, N) and c.dtype == out_dtype and c.device.type == "meta"
    # column-major activation scales
    c = blockfp8.gemm(a, torch.empty(K // 128, M, device="meta").t(), b, b_scale, out_dtype=out_dtype)
    assert c.shape == (M, N)
    out = torch.empty(M, N, dtype=out_dtype, device="meta")
    assert blockfp8.gemm(a, a_scale, b, b_scale, out=out) is out
    # M == 0 and N == 1
    a0, as0, _, _ = meta_inputs(m=0)
    assert blockfp8.gemm(a0, as0, b, b_scale).shape == (0, N)
    _, _, b1, bs1 = meta_inputs(n=1)
    assert blockfp8.gemm(a, a_scale, b1, bs1).shape == (M, 1)


def test_fake_tensor_mode_cuda():
    from torch._subclasses.fake_tensor import FakeTensorMode
    with FakeTensorMode():
        a, a_scale, b, b_scale = meta_inputs(device="cuda")
        c = blockfp8.gemm(a, a_scale, b, b_scale)
        assert c.shape == (M, N) and c.dtype == torch.bfloat16 and c.device.type == "cuda"
        c = blockfp8.w8a8_block_fp8_matmul(a.view(1, M, K), b, a_scale.view(1, M, K // 128), b_scale, [128, 128], torch.float16)
        assert c.shape == (1, M, N) and c.dtype == torch.float16


@pytest.mark.parametrize("lead", [(), (M,), (2, M), (2, 1, M)])
def test_w8a8_meta_shapes(lead):
    A = torch.empty(*lead, K, dtype=FP8, device="meta")
    As = torch.empty(*lead, K // 128, device="meta")
    _, _, B, Bs = meta_inputs()
    C = blockfp8.w8a8_block_fp8_matmul(A, B, As, Bs, [128, 128], torch.bfloat16)
    assert C.shape == (*lead, N) and C.dtype == torch.bfloat16
    C = blockfp8.w8a8_block_fp8_matmul(A, B, As, Bs, (128, 128))
    assert C.dtype == torch.float16  # vLLM's default output dtype


def test_opcheck():
    a, a_scale, b, b_scale = meta_inputs()
    torch.library.opcheck(torch.ops.blockfp8.gemm.default, (a, a_scale, b, b_scale, torch.bfloat16))
    out = torch.empty(M, N, dtype=torch.float32, device="meta")
    torch.library.opcheck(torch.ops.blockfp8.gemm_out.default, (a, a_scale, b, b_scale, out))


def test_make_fx_records_the_op():
    from torch.fx.experimental.proxy_tensor import make_fx
    g = make_fx(lambda a, s, b, t: blockfp8.gemm(a, s, b, t), tracing_mode="fake")(*meta_inputs())
    assert "torch.ops.blockfp8.gemm.default" in g.code


def test_compile_fullgraph_meta():
    # fullgraph=True: no graph break anywhere in gemm / w8a8_block_fp8_matmul, out= included.
    torch._dynamo.reset()
    a, a_scale, b, b_scale = meta_inputs()

    def f(a, a_scale, b, b_scale, out):
        c = blockfp8.gemm(a, a_scale, b, b_scale, out_dtype=torch.float32)
        blockfp8.gemm(a, a_scale, b, b_scale, out=out)
        d = blockfp8.w8a8_block_fp8_matmul(a.unsqueeze(0), b, a_scale.unsqueeze(0), b_scale, [128, 128], torch.bfloat16)
        return c, out, d

    cf = torch.compile(f, fullgraph=True, backend="aot_eager")
    out = torch.empty(M, N, dtype=torch.float16, device="meta")
    c, o, d = cf(a, a_scale, b, b_scale, out)
    assert c.shape == (M, N) and c.dtype == torch.float32
    assert o.shape == (M, N) and o.dtype == torch.float16
    assert d.shape == (1, M, N) and d.dtype == torch.bfloat16


def test_compile_dynamic_m_meta():
    torch._dynamo.reset()
    cf = torch.compile(lambda a, s, b, t: blockfp8.gemm(a, s, b, t), fullgraph=True, backend="aot_eager", dynamic=True)
    for m in (1, 5, 17):
        a, a_scale, b, b_scale = meta_inputs(m=m)
        assert cf(a, a_scale, b, b_scale).shape == (m, N)


def test_quantize_binding_is_optional():
    # Bound only when the library exports it; absent symbol must not break loading.
    has = _lib.has_symbol("blockfp8_quantize_1x128")
    assert isinstance(has, bool)
    assert isinstance(_lib.lib(), ctypes.CDLL)


def test_eager_predicate():
    a = torch.empty(2, 128, dtype=FP8)
    assert ops._eager(a)                          # real tensor: validated in Python, then refused (CPU)
    assert not ops._eager(a.to("meta"))           # meta: the registered operator's fake implementation
    from torch._subclasses.fake_tensor import FakeTensorMode
    with FakeTensorMode():
        assert not ops._eager(torch.empty(2, 128, dtype=FP8))


def test_weight_rejects_what_gemm_rejects():
    b = torch.zeros(256, 384, dtype=FP8)
    s = torch.ones(2, 3)
    with pytest.raises(TypeError, match="b must have dtype"):
        blockfp8.Weight(b.float(), s)
    with pytest.raises(ValueError, match="b_scale must have shape"):
        blockfp8.Weight(b, s[:, :2])
    with pytest.raises(ValueError, match="K must be a positive multiple of 128"):
        blockfp8.Weight(b[:, :200], s)
    with pytest.raises(ValueError, match="CUDA tensor"):
        blockfp8.Weight(b, s)


# ----------------------------------------------------------------------------------------------
# From bf16 activations (blockfp8.gemm_bf16a / blockfp8.linear): fake shapes and argument errors
# ----------------------------------------------------------------------------------------------

def test_gemm_bf16a_meta_shapes():
    x = torch.empty(5, 512, dtype=torch.bfloat16, device="meta")
    b = torch.empty(300, 512, dtype=FP8, device="meta")
    bs = torch.empty(3, 4, device="meta")
    y = blockfp8.gemm_bf16a(x, b, bs, out_dtype=torch.float16, scale_format="ue8m0")
    assert y.shape == (5, 300) and y.dtype == torch.float16 and y.device.type == "meta"
    y3 = blockfp8.linear(x.view(1, 5, 512), b, bs)
    assert y3.shape == (1, 5, 300) and y3.dtype == torch.bfloat16
    traced = torch.compile(lambda t: blockfp8.linear(t, b, bs), backend="eager", fullgraph=True)
    assert traced(x).shape == (5, 300)


@pytest.mark.parametrize("bad,err,match", [
    ({"x": torch.empty(4, 512, dtype=torch.int8)}, TypeError, "x must have dtype"),
    ({"b": torch.empty(300, 384, dtype=FP8)}, ValueError, "same K"),
    ({"b_scale": torch.empty(3, 3)}, ValueError, r"b_scale must have shape \[ceil\(N/128\), K/128\]"),
    ({"x": torch.empty(4, 500, dtype=torch.bfloat16)}, ValueError, "same K|multiple of 128"),
    ({"scale_format": "e8m0"}, ValueError, "scale_format must be 'fp32' or 'ue8m0'"),
    ({"out_dtype": torch.int32}, TypeError, "out_dtype must be"),
    ({"x": torch.empty(4, 512, dtype=torch.bfloat16).t()}, ValueError, "same K|contiguous along K"),
    ({"device": "cpu"}, ValueError, "must be a CUDA tensor"),
])
def test_gemm_bf16a_argument_errors(bad, err, match):
    """Every rule names the argument (meta tensors: the checks, not the device, are under test; the
    last case puts valid tensors on the CPU)."""
    dev = bad.pop("device", "meta")
    args = {"x": torch.empty(4, 512, dtype=torch.bfloat16, device=dev),
            "b": torch.empty(300, 512, dtype=FP8, device=dev),
            "b_scale": torch.empty(3, 4, device=dev), "out_dtype": torch.bfloat16, "scale_format": "fp32"}
    args.update(bad)
    with pytest.raises(err, match=match):
        blockfp8.gemm_bf16a(**args)
