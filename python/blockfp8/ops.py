"""PyTorch front of blockfp8: torch.library custom ops and the Python entry points.

Two operators are registered (torch >= 2.4):
  blockfp8::gemm(Tensor a, Tensor a_scale, Tensor b, Tensor b_scale, ScalarType out_dtype) -> Tensor
  blockfp8::gemm_out(Tensor a, Tensor a_scale, Tensor b, Tensor b_scale, Tensor(a!) out) -> ()
each with a fake (meta) implementation, so torch.compile(fullgraph=True), torch.export and CUDA
graphs see them as ordinary ops.

`gemm` (the Python function) picks: in plain eager mode on real tensors it validates and calls the
C ABI directly (the dispatcher's Python custom-op path costs several microseconds per call), through
a one-function fast path for the decode case (dense operands on the current device) and the
checked path (_gemm_eager) otherwise; under torch.compile, tracing, or any torch dispatch mode, or
on meta / subclass tensors, it calls the registered operator.

Both paths run on the tensors' device (made current for the call) and its current CUDA stream,
allocate nothing but the output, and never synchronise.
"""
from __future__ import annotations

from typing import Optional, Sequence

import torch

from . import _lib

__all__ = ["gemm", "w8a8_block_fp8_matmul", "Weight"]

_FP8 = torch.float8_e4m3fn
_F32 = torch.float32
_OUT_DTYPES = {torch.bfloat16: _lib.DTYPE_BF16, torch.float16: _lib.DTYPE_FP16, torch.float32: _lib.DTYPE_FP32}
_BLOCK = 128

_is_compiling = getattr(getattr(torch, "compiler", None), "is_compiling", None)
if _is_compiling is None:  # pragma: no cover (older torch)
    _is_compiling = torch._dynamo.is_compiling
_dispatch_stack_len = torch._C._len_torch_dispatch_stack
_raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None)


def _current_stream(index: int) -> int:
    if _raw_stream is not None:
        return _raw_stream(index)
    return torch.cuda.current_stream(index).cuda_stream  # pragma: no cover


# ----------------------------------------------------------------------------------------------
# Argument checking. Everything the C ABI would refuse for a reason visible from Python is refused
# here first, with the argument's name and the rule. What needs addresses (alignment, overlap) is
# left to C, whose status then raises BlockFP8Error.
# ----------------------------------------------------------------------------------------------

def _shape(t: torch.Tensor) -> tuple:
    return tuple(t.shape)


def _check_tensor(t, name: str, fn: str) -> None:
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{fn}: {name} must be a torch.Tensor, got {type(t).__name__}")


def _check_shapes(a, a_scale, b, b_scale, fn: str):
    """dtype, rank, shape and stride rules. Returns (M, N, K, a.stride(), b.stride()) (the strides so
    the eager path need not read them again). No device access (fake-safe).

    The common case is one boolean expression (host overhead matters at decode sizes); only when it
    fails does _explain() walk the rules one by one to name the argument and the rule."""
    try:
        m, k = a.shape
        n, kb_ = b.shape
        sa, sb = a.stride(), b.stride()
        ok = (a.dtype is _FP8 and b.dtype is _FP8 and a_scale.dtype is _F32 and b_scale.dtype is _F32
              and k == kb_ and k > 0 and k % _BLOCK == 0 and n >= 1
              and a_scale.shape == (m, k // _BLOCK) and b_scale.shape == ((n + _BLOCK - 1) // _BLOCK, k // _BLOCK)
              and sa[1] == 1 and sb[1] == 1 and (m <= 1 or sa[0] >= k) and (n <= 1 or sb[0] >= k))
    except (ValueError, TypeError, AttributeError):
        ok = False
    if not ok:
        _explain(a, a_scale, b, b_scale, fn)
    return m, n, k, sa, sb


def _explain(a, a_scale, b, b_scale, fn: str) -> None:
    for t, name in ((a, "a"), (a_scale, "a_scale"), (b, "b"), (b_scale, "b_scale")):
        _check_tensor(t, name, fn)
    _check_pair(a, "a", a.dtype == _FP8, "torch.float8_e4m3fn", a_scale, b, b_scale, fn)
    raise AssertionError(f"{fn}: argument check failed without a reason")  # pragma: no cover


def _check_pair(lhs, name: str, dtype_ok: bool, dtype_rule: str, lhs_scale, b, b_scale, fn: str,
                lhs_stride_needs_rows: bool = False):
    """The rules of an activation operand `lhs` [M, K] (with its 1x128 scales, or None when the call
    quantises it) against the weight b [N, K] and b_scale, one by one in a fixed order; raises the
    first broken one naming the argument. Returns (M, N, K) when none is. Shared by gemm (a, fp8)
    and gemm_bf16a (x, bf16/fp16/fp32). No device access (fake-safe)."""
    if not dtype_ok:
        raise TypeError(f"{fn}: {name} must have dtype {dtype_rule}, got {lhs.dtype}")
    if b.dtype != _FP8:
        raise TypeError(f"{fn}: b must have dtype torch.float8_e4m3fn, got {b.dtype}")
    if lhs_scale is not None and lhs_scale.dtype != torch.float32:
        raise TypeError(f"{fn}: {name}_scale must have dtype torch.float32, got {lhs_scale.dtype}")
    if b_scale.dtype != torch.float32:
        raise TypeError(f"{fn}: b_scale must have dtype torch.float32, got {b_scale.dtype}")
    if lhs.dim() != 2:
        raise ValueError(f"{fn}: {name} must be 2-D [M, K], got shape {_shape(lhs)}")
    if b.dim() != 2:
        raise ValueError(f"{fn}: b must be 2-D [N, K], got shape {_shape(b)}")
    m, k = lhs.shape
    n, kb_ = b.shape
    if kb_ != k:
        raise ValueError(f"{fn}: {name} [M, K] and b [N, K] must have the same K, got {name} {_shape(lhs)} and b {_shape(b)}")
    if k <= 0 or k % _BLOCK != 0:
        raise ValueError(f"{fn}: K must be a positive multiple of 128, got K={k}")
    if n < 1:
        raise ValueError(f"{fn}: b must have at least one row (N >= 1), got shape {_shape(b)}")
    kb = k // _BLOCK
    if lhs_scale is not None and (lhs_scale.dim() != 2 or lhs_scale.shape[0] != m or lhs_scale.shape[1] != kb):
        raise ValueError(f"{fn}: {name}_scale must have shape [M, K/128] = [{m}, {kb}], got {_shape(lhs_scale)}")
    nb = (n + _BLOCK - 1) // _BLOCK
    if b_scale.dim() != 2 or b_scale.shape[0] != nb or b_scale.shape[1] != kb:
        raise ValueError(f"{fn}: b_scale must have shape [ceil(N/128), K/128] = [{nb}, {kb}], got {_shape(b_scale)}")
    if lhs.stride(1) != 1 and (m > 0 or not lhs_stride_needs_rows):
        raise ValueError(f"{fn}: {name} must be contiguous along K (stride(1) == 1), got strides {lhs.stride()}")
    if b.stride(1) != 1:
        raise ValueError(f"{fn}: b must be contiguous along K (stride(1) == 1), got strides {b.stride()}")
    if m > 1 and lhs.stride(0) < k:
        raise ValueError(f"{fn}: {name}'s row stride must be >= K={k}, got strides {lhs.stride()}")
    if n > 1 and b.stride(0) < k:
        raise ValueError(f"{fn}: b's row stride must be >= K={k}, got strides {b.stride()}")
    return m, n, k


def _check_out(out, m: int, n: int, fn: str) -> None:
    _check_tensor(out, "out", fn)
    if out.dtype not in _OUT_DTYPES:
        raise TypeError(f"{fn}: out must have dtype bfloat16, float16 or float32, got {out.dtype}")
    if out.dim() != 2 or out.shape[0] != m or out.shape[1] != n:
        raise ValueError(f"{fn}: out must have shape [M, N] = [{m}, {n}], got {_shape(out)}")
    so = out.stride()
    if n > 1 and so[1] != 1:
        raise ValueError(f"{fn}: out must be contiguous along N (stride(1) == 1), got strides {so}")
    if m > 1 and so[0] < n:
        raise ValueError(f"{fn}: out's row stride must be >= N={n}, got strides {so}")


def _check_out_dtype(out_dtype, fn: str) -> int:
    code = _OUT_DTYPES.get(out_dtype)
    if code is None:
        raise TypeError(f"{fn}: out_dtype must be torch.bfloat16, torch.float16 or torch.float32, got {out_dtype}")
    return code


def _check_devices(fn: str, *named) -> int:
    """All tensors on one CUDA device; returns its index."""
    index = named[0][0].get_device()  # -1 for CPU tensors
    if index < 0:
        raise ValueError(f"{fn}: {named[0][1]} must be a CUDA tensor, got device {named[0][0].device}")
    for t, name in named[1:]:
        if t.get_device() != index:
            raise ValueError(f"{fn}: all tensors must be on one CUDA device; {named[0][1]} is on "
                             f"{named[0][0].device}, {name} on {t.device}")
    return index


# ----------------------------------------------------------------------------------------------
# The call into C (real tensors only).
# ----------------------------------------------------------------------------------------------

_get_device = getattr(torch._C, "_cuda_getDevice", None) or torch.cuda.current_device
_stream = _raw_stream if _raw_stream is not None else _current_stream  # skips a Python frame per call
_Tensor = torch.Tensor
_gemm_c = None  # _lib.fast_gemm_fn() once bound (_bind_gemm_c)


def _gemm_eager(a, a_scale, b, b_scale, out_dtype, out, fn="blockfp8.gemm"):
    """The checked path: check, allocate the output when `out` is None, and launch on the tensors'
    device (under a device guard when it is not current) and its current stream; returns the output.
    Real tensors only. The registered operator runs this; so does gemm() for every call its fast path
    does not take (strided operands, another device, a broken rule).

    The common case reads each tensor attribute once and tests all rules in one expression; only on
    failure do the _check_* helpers walk the rules to raise the same errors, in the same order, as
    checking step by step."""
    m, n, k, sa, sb = _check_shapes(a, a_scale, b, b_scale, fn)
    if out is None:
        code = _OUT_DTYPES.get(out_dtype)
        if code is None:
            _check_out_dtype(out_dtype, fn)
    else:
        try:
            code = _OUT_DTYPES.get(out.dtype)
            so = out.stride()
            ok = (code is not None and out.shape == (m, n)  # shape first: then `so` has two entries
                  and (n <= 1 or so[1] == 1) and (m <= 1 or so[0] >= n))
        except (AttributeError, TypeError):  # not a tensor
            ok = False
        if not ok:
            _check_out(out, m, n, fn)
    index = a.get_device()  # -1 on CPU
    if (index < 0 or a_scale.get_device() != index or b.get_device() != index or b_scale.get_device() != index
            or (out is not None and out.get_device() != index)):
        named = ((a, "a"), (a_scale, "a_scale"), (b, "b"), (b_scale, "b_scale"))
        _check_devices(fn, *named, *(() if out is None else ((out, "out"),)))  # raises
    if out is None:
        # Tensor.new_empty(m, n, dtype=) is the cheapest eager allocation on a's device: ~1 us less
        # than torch.empty((m, n), dtype=, device=a.device) in the argument parser alone (CPU, measured).
        out = a.new_empty(m, n, dtype=out_dtype)
        ldc = n
    else:
        ldc = so[0] if m > 1 else n
    ss_a, ss_b = a_scale.stride(), b_scale.stride()
    args = (m, n, k, a.data_ptr(), sa[0] if m > 1 else k, a_scale.data_ptr(), ss_a[0], ss_a[1],
            b.data_ptr(), sb[0] if n > 1 else k, b_scale.data_ptr(), ss_b[0], ss_b[1],
            out.data_ptr(), ldc, code)
    gemm_c = _gemm_c or _bind_gemm_c()  # blockfp8_gemm, the cheapest call there is (see _lib.fast_gemm_fn)
    if _get_device() == index:  # the usual case: skip the device guard (a context manager per call)
        status = gemm_c(*args, _stream(index))
    else:
        with torch.cuda.device(index):
            status = gemm_c(*args, _stream(index))
    if status != 0:
        raise _status_error(status, m, n, k, index, fn)
    return out


def _gemm_real(a, a_scale, b, b_scale, out_dtype, fn="blockfp8.gemm"):
    return _gemm_eager(a, a_scale, b, b_scale, out_dtype, None, fn)


def _gemm_out_real(a, a_scale, b, b_scale, out, fn="blockfp8.gemm"):
    _gemm_eager(a, a_scale, b, b_scale, None, out, fn)


# ----------------------------------------------------------------------------------------------
# Registered operators.
# ----------------------------------------------------------------------------------------------

@torch.library.custom_op(
    "blockfp8::gemm", mutates_args=(),
    schema="(Tensor a, Tensor a_scale, Tensor b, Tensor b_scale, ScalarType out_dtype) -> Tensor")
def _gemm_op(a, a_scale, b, b_scale, out_dtype):
    return _gemm_real(a, a_scale, b, b_scale, out_dtype)


@_gemm_op.register_fake
def _gemm_fake(a, a_scale, b, b_scale, out_dtype):
    fn = "blockfp8.gemm"
    m, n = _check_shapes(a, a_scale, b, b_scale, fn)[:2]
    _check_out_dtype(out_dtype, fn)
    return a.new_empty((m, n), dtype=out_dtype)


@torch.library.custom_op(
    "blockfp8::gemm_out", mutates_args=("out",),
    schema="(Tensor a, Tensor a_scale, Tensor b, Tensor b_scale, Tensor(a!) out) -> ()")
def _gemm_out_op(a, a_scale, b, b_scale, out):
    _gemm_out_real(a, a_scale, b, b_scale, out)


@_gemm_out_op.register_fake
def _gemm_out_fake(a, a_scale, b, b_scale, out):
    fn = "blockfp8.gemm"
    m, n = _check_shapes(a, a_scale, b, b_scale, fn)[:2]
    _check_out(out, m, n, fn)


# ----------------------------------------------------------------------------------------------
# Public functions.
# ----------------------------------------------------------------------------------------------

def _eager(t) -> bool:
    """Plain eager call on a real (non-meta) tensor: no compile, no tracing, no dispatch mode."""
    return not _is_compiling() and type(t) is torch.Tensor and not t.is_meta and _dispatch_stack_len() == 0


def _bind_gemm_c():
    """The C entry (blockfp8_gemm through the _fastcall extension, or the fast ctypes binding where
    that is missing: _lib.fast_gemm_fn), bound on the first eager call: importing blockfp8 must not
    load the library."""
    global _gemm_c
    _gemm_c = _lib.fast_gemm_fn()
    return _gemm_c


def _status_error(status, m, n, k, index, fn="blockfp8.gemm"):
    return _lib.BlockFP8Error(status, "blockfp8_gemm", f"{fn}(M={m}, N={n}, K={k}) on cuda:{index}")


def _gemm_routed(a, a_scale, b, b_scale, out_dtype, out):
    """Everything but the eager fast path: the registered operators under compile / tracing / a
    dispatch mode or on meta tensors; otherwise the checked eager path, which raises the named
    argument error, or runs under a device guard when the tensors' device is not current."""
    if _eager(a):
        return _gemm_eager(a, a_scale, b, b_scale, out_dtype, out)
    fn = "blockfp8.gemm"
    for t, name in ((a, "a"), (a_scale, "a_scale"), (b, "b"), (b_scale, "b_scale")):
        _check_tensor(t, name, fn)
    if out is None:
        return torch.ops.blockfp8.gemm(a, a_scale, b, b_scale, out_dtype)
    _check_tensor(out, "out", fn)
    torch.ops.blockfp8.gemm_out(a, a_scale, b, b_scale, out)
    return out


def gemm(a: torch.Tensor, a_scale: torch.Tensor, b: torch.Tensor, b_scale: torch.Tensor,
         out_dtype: torch.dtype = torch.bfloat16, out: Optional[torch.Tensor] = None) -> torch.Tensor:
    """C[m, n] = sum_kb (A[m, kb-block] . B[n, kb-block]) * a_scale[m, kb] * b_scale[n // 128, kb].

    a [M, K] and b [N, K]: torch.float8_e4m3fn, K contiguous, K % 128 == 0.
    a_scale [M, K/128] float32, any strides (row- or column-major, no copy).
    b_scale [ceil(N/128), K/128] float32, any strides.
    out_dtype: bfloat16, float16 or float32 (ignored when `out` is given: out's dtype is used).
    out: optional [M, N] output, N contiguous, written in place and returned.
    Runs on the tensors' CUDA device and that device's current stream; never synchronises.
    """
    # The fast path: the decode case (dense a, b and out, all tensors on the current device), in one
    # function with every attribute read once. Each Python call, tensor attribute and tuple costs
    # 50-150 ns here and the budget is a few microseconds, hence no helpers on this path. Anything
    # else (compile, tracing, dispatch modes, meta or subclass tensors, strided operands, another
    # device, m == 0, a rule broken) goes to _gemm_routed, which checks rule by rule and raises
    # the named error; the fast path only ever accepts calls that path would accept too.
    # is_compiling() first: under torch.compile it is a constant and the rest is never traced.
    if _is_compiling() or _dispatch_stack_len() or type(a) is not _Tensor:
        return _gemm_routed(a, a_scale, b, b_scale, out_dtype, out)
    try:
        m, k = a.shape
        n, kb = b.shape
        kb = k >> 7 if k == kb else -1  # K/128 when a and b agree on K
        fast = (m > 0 and n > 0 and kb > 0 and not k & 127
                and a.dtype is _FP8 and b.dtype is _FP8 and a_scale.dtype is _F32 and b_scale.dtype is _F32
                # is_contiguous() is one cheap C call; for [M, K] with M >= 1, K >= 128 it means
                # stride (K, 1) where M > 1 and stride(1) == 1 where M == 1: lda = K is exact.
                and a.is_contiguous() and b.is_contiguous()
                and a_scale.shape == (m, kb) and b_scale.shape == ((n + 127) >> 7, kb))
        code = _OUT_DTYPES[out_dtype if out is None else out.dtype]
    except (ValueError, TypeError, AttributeError, KeyError, RuntimeError):  # not 2-D, not a tensor, ...
        fast = False
    index = a.get_device()  # -1 off CUDA
    if (fast and index >= 0 and a_scale.get_device() == index and b.get_device() == index
            and b_scale.get_device() == index and _get_device() == index):
        if out is None:
            c = a.new_empty(m, n, dtype=out_dtype)  # the cheapest eager allocation (see _gemm_eager)
        elif out.get_device() == index and out.shape == (m, n) and out.is_contiguous():
            c = out  # [M, N] contiguous: ldc = N
        else:
            return _gemm_routed(a, a_scale, b, b_scale, out_dtype, out)
        ss_a, ss_b = a_scale.stride(), b_scale.stride()
        status = (_gemm_c or _bind_gemm_c())(
            m, n, k, a.data_ptr(), k, a_scale.data_ptr(), ss_a[0], ss_a[1], b.data_ptr(), k,
            b_scale.data_ptr(), ss_b[0], ss_b[1], c.data_ptr(), n, code, _stream(index))
        if status:
            raise _status_error(status, m, n, k, index)
        return c
    return _gemm_routed(a, a_scale, b, b_scale, out_dtype, out)


class Weight:
    """A weight checked once, for decode loops that call it every step without CUDA graphs:

        w = blockfp8.Weight(b, b_scale)      # b [N, K] float8_e4m3fn, b_scale [ceil(N/128), K/128]
        c = w(a, a_scale)                    # == blockfp8.gemm(a, a_scale, b, b_scale)

    b's and b_scale's dtype, shape, strides, device and addresses are read here, not per call (about
    a fifth of gemm()'s host time). Their values may change afterwards; their storage, shape and
    strides must not (no resize_, set_ or in-place transposes: make a new Weight instead). Under
    torch.compile, tracing or a dispatch mode the call is the registered operator on (b, b_scale).
    """

    __slots__ = ("b", "b_scale", "n", "k", "kb", "index", "_b_ptr", "_ldb", "_s_ptr", "_ss_n", "_ss_k")

    def __init__(self, b: torch.Tensor, b_scale: torch.Tensor):
        fn = "blockfp8.Weight"
        n, k = b.shape if isinstance(b, torch.Tensor) and b.dim() == 2 else (1, 128)
        # The GEMM's own rules on a one-row A of the right K, so the errors are gemm()'s.
        probe_a = torch.empty((1, k), dtype=_FP8, device="meta")
        probe_s = torch.empty((1, k // _BLOCK if k % _BLOCK == 0 else 1), dtype=_F32, device="meta")
        _check_shapes(probe_a, probe_s, b, b_scale, fn)
        self.index = _check_devices(fn, (b, "b"), (b_scale, "b_scale"))
        self.b, self.b_scale, self.n, self.k, self.kb = b, b_scale, n, k, k // _BLOCK
        self._b_ptr, self._ldb = b.data_ptr(), b.stride(0) if n > 1 else k
        self._s_ptr = b_scale.data_ptr()
        self._ss_n, self._ss_k = b_scale.stride()

    def __repr__(self) -> str:
        return f"blockfp8.Weight(N={self.n}, K={self.k}, cuda:{self.index})"

    def __call__(self, a: torch.Tensor, a_scale: torch.Tensor, out_dtype: torch.dtype = torch.bfloat16,
                 out: Optional[torch.Tensor] = None) -> torch.Tensor:
        """blockfp8.gemm(a, a_scale, self.b, self.b_scale, out_dtype, out), with gemm()'s fast path
        minus the weight's checks."""
        if _is_compiling() or _dispatch_stack_len() or type(a) is not _Tensor:
            return _gemm_routed(a, a_scale, self.b, self.b_scale, out_dtype, out)
        try:
            m, k = a.shape
            fast = (m > 0 and k == self.k and a.dtype is _FP8 and a_scale.dtype is _F32 and a.is_contiguous()
                    and a_scale.shape == (m, self.kb))
            code = _OUT_DTYPES[out_dtype if out is None else out.dtype]
        except (ValueError, TypeError, AttributeError, KeyError, RuntimeError):
            fast = False
        index = self.index
        if fast and a.get_device() == index and a_scale.get_device() == index and _get_device() == index:
            n = self.n
            if out is None:
                c = a.new_empty(m, n, dtype=out_dtype)
            elif out.get_device() == index and out.shape == (m, n) and out.is_contiguous():
                c = out
            else:
                return _gemm_routed(a, a_scale, self.b, self.b_scale, out_dtype, out)
            ss_a = a_scale.stride()
            status = (_gemm_c or _bind_gemm_c())(
                m, n, k, a.data_ptr(), k, a_scale.data_ptr(), ss_a[0], ss_a[1], self._b_ptr, self._ldb,
                self._s_ptr, self._ss_n, self._ss_k, c.data_ptr(), n, code, _stream(index))
            if status:
                raise _status_error(status, m, n, k, index)
            return c
        return _gemm_routed(a, a_scale, self.b, self.b_scale, out_dtype, out)


def _check_block_size(block_size, fn: str) -> None:
    try:
        bs = [int(x) for x in block_size]
    except TypeError:
        raise TypeError(f"{fn}: block_size must be a sequence of two ints, got {block_size!r}") from None
    if bs != [_BLOCK, _BLOCK]:
        raise ValueError(f"{fn}: blockfp8 supports block_size [128, 128] only, got {list(block_size)}")


def _rows(t: torch.Tensor, name: str, fn: str) -> torch.Tensor:
    """View t [..., X] as [prod(...), X] without a copy; ValueError when that would need one."""
    if t.dim() == 2:
        return t
    # The leading dims collapse into one iff each non-unit dim's stride is the next inner non-unit
    # leading dim's stride times its size.
    inner = None
    for size, stride in zip(reversed(t.shape[:-1]), reversed(t.stride()[:-1])):
        if size == 1:
            continue
        if inner is not None and stride != inner[0] * inner[1]:
            raise ValueError(f"{fn}: {name}'s leading dimensions must be flattenable without a copy "
                             f"(shape {_shape(t)}, strides {t.stride()})")
        inner = (stride, size)
    rows = 1
    for size in t.shape[:-1]:
        rows *= size
    return t.view(rows, t.shape[-1])


def w8a8_block_fp8_matmul(A: torch.Tensor, B: torch.Tensor, As: torch.Tensor, Bs: torch.Tensor,
                          block_size: Sequence[int], output_dtype: torch.dtype = torch.float16) -> torch.Tensor:
    """Drop-in for vLLM's w8a8_block_fp8_matmul (same argument order, defaults and result).

    A [..., K] float8_e4m3fn (leading dims flattened to M), As [..., K/128] float32,
    B [N, K] float8_e4m3fn, Bs [ceil(N/128), K/128] float32, block_size == [128, 128].
    Returns A.shape[:-1] + (N,) in output_dtype.
    """
    fn = "blockfp8.w8a8_block_fp8_matmul"
    _check_block_size(block_size, fn)
    for t, name in ((A, "A"), (B, "B"), (As, "As"), (Bs, "Bs")):
        _check_tensor(t, name, fn)
    if A.dim() < 1:
        raise ValueError(f"{fn}: A must be [..., K], got a scalar")
    if As.dim() != A.dim() or _shape(As)[:-1] != _shape(A)[:-1]:
        raise ValueError(f"{fn}: As must have shape A.shape[:-1] + (K/128,), got A {_shape(A)} and As {_shape(As)}")
    lead = _shape(A)[:-1]
    c = gemm(_rows(A, "A", fn), _rows(As, "As", fn), B, Bs, out_dtype=output_dtype)
    if A.dim() == 2:
        return c
    return c.view(*lead, c.shape[-1])
