"""The GEMM from bf16 activations: blockfp8.gemm_bf16a and blockfp8.linear (torch.library custom op).

    y = blockfp8.linear(x, w, w_scale)          # x [..., K] bf16, w [N, K] e4m3, w_scale [N/128, K/128]
    c = blockfp8.gemm_bf16a(x2d, w, w_scale)    # the 2-D form, output dtype of your choice

Bitwise identical to blockfp8.gemm(*blockfp8.quantize_1x128(x2d, scale_format), w, w_scale): the C
entry point (blockfp8_gemm_bf16a) quantises inside the decode kernel, in one launch, where that pays
(bf16 x with 16-byte aligned rows, M x k-blocks per CTA <= 40: M <= 2 on 2112 x 7168) and otherwise
quantises into a workspace this module allocates and runs the GEMM. Registered operator:
  blockfp8::gemm_bf16a(Tensor x, Tensor b, Tensor b_scale, ScalarType out_dtype, str scale_format) -> Tensor
Same calling rules as blockfp8.gemm: eager calls on real tensors go straight to C; compile, tracing
and dispatch modes see the operator. Runs on x's device and current stream; never synchronises.
"""
from __future__ import annotations

import ctypes
from ctypes import c_size_t
from typing import Optional

import torch

from . import _lib
from .ops import _OUT_DTYPES, _check_devices, _check_pair, _check_tensor, _eager, _get_device, _rows, _shape, _stream
from .quant import _FORMATS, _IN_DTYPES as _X_DTYPES  # the quantiser's input dtypes and scale formats

__all__ = ["gemm_bf16a", "linear"]

_FN = "blockfp8.gemm_bf16a"


def _c():
    """(blockfp8_gemm_bf16a, blockfp8_gemm_bf16a_workspace_size) of the loaded library."""
    lib = _lib.lib()
    if not hasattr(lib, "blockfp8_gemm_bf16a"):
        raise RuntimeError(f"{_FN}: the loaded library ({_lib.library_path()}) has no blockfp8_gemm_bf16a")
    return lib.blockfp8_gemm_bf16a, lib.blockfp8_gemm_bf16a_workspace_size


def _check(x, b, b_scale, out_dtype, scale_format, fn=_FN):
    """dtype / shape / stride rules, no device access (fake-safe). Returns (M, N, K, fmt)."""
    for t, name in ((x, "x"), (b, "b"), (b_scale, "b_scale")):
        _check_tensor(t, name, fn)
    fmt = _FORMATS.get(scale_format) if isinstance(scale_format, str) else None
    if fmt is None:
        raise ValueError(f"{fn}: scale_format must be 'fp32' or 'ue8m0', got {scale_format!r}")
    if out_dtype not in _OUT_DTYPES:
        raise TypeError(f"{fn}: out_dtype must be torch.bfloat16, torch.float16 or torch.float32, got {out_dtype}")
    m, n, k = _check_pair(x, "x", x.dtype in _X_DTYPES, "bfloat16, float16 or float32", None, b, b_scale, fn,
                          lhs_stride_needs_rows=True)
    return m, n, k, fmt


# Workspace bytes per (device, shape, alignment class): the answer depends only on these, and asking
# C each call would cost a second ctypes call.
_workspace_bytes: dict = {}


def _gemm_real(x, b, b_scale, out_dtype, scale_format, fn=_FN):
    m, n, k, fmt = _check(x, b, b_scale, out_dtype, scale_format, fn)
    index = _check_devices(fn, (x, "x"), (b, "b"), (b_scale, "b_scale"))
    out = x.new_empty((m, n), dtype=out_dtype)
    if m == 0:
        return out
    if _get_device() == index:  # the usual case: no device guard (a context manager per call)
        status = _launch(x, b, b_scale, out, m, n, k, fmt, index, fn)
    else:
        with torch.cuda.device(index):
            status = _launch(x, b, b_scale, out, m, n, k, fmt, index, fn)
    if status != 0:
        raise _lib.BlockFP8Error(status, "blockfp8_gemm_bf16a", f"{fn}(M={m}, N={n}, K={k}) on cuda:{index}")
    return out


def _launch(x, b, b_scale, out, m, n, k, fmt, index, fn):
    """blockfp8_gemm_bf16a on the current device (x's) and stream, with the workspace it asks for."""
    gemm_c, size_c = _c()
    ldx = x.stride(0) if m > 1 else k
    ldb = b.stride(0) if n > 1 else k
    xp, bp = x.data_ptr(), b.data_ptr()
    key = (index, m, n, k, x.dtype, (xp | (ldx * x.element_size())) & 15, (bp | ldb) & 15)
    need = _workspace_bytes.get(key)
    if need is None:
        nbytes = c_size_t(0)
        status = size_c(m, n, k, xp, ldx, _X_DTYPES[x.dtype], bp, ldb, ctypes.byref(nbytes))
        if status != 0:
            raise _lib.BlockFP8Error(status, "blockfp8_gemm_bf16a_workspace_size", f"{fn}(M={m}, N={n}, K={k})")
        if len(_workspace_bytes) >= 4096:  # a server sees many M: keep the table bounded
            _workspace_bytes.clear()
        need = _workspace_bytes[key] = nbytes.value
    ws = x.new_empty((need,), dtype=torch.uint8) if need else None
    ss_n, ss_k = b_scale.stride()
    return gemm_c(m, n, k, xp, ldx, _X_DTYPES[x.dtype], bp, ldb, b_scale.data_ptr(), ss_n, ss_k, out.data_ptr(), n,
                  _OUT_DTYPES[out.dtype], fmt, ws.data_ptr() if need else None, need, _stream(index))


@torch.library.custom_op(
    "blockfp8::gemm_bf16a", mutates_args=(),
    schema="(Tensor x, Tensor b, Tensor b_scale, ScalarType out_dtype, str scale_format) -> Tensor")
def _gemm_bf16a_op(x, b, b_scale, out_dtype, scale_format):
    return _gemm_real(x, b, b_scale, out_dtype, scale_format)


@_gemm_bf16a_op.register_fake
def _gemm_bf16a_fake(x, b, b_scale, out_dtype, scale_format):
    m, n, _, _ = _check(x, b, b_scale, out_dtype, scale_format)
    return x.new_empty((m, n), dtype=out_dtype)


def gemm_bf16a(x: torch.Tensor, b: torch.Tensor, b_scale: torch.Tensor, out_dtype: torch.dtype = torch.bfloat16,
               scale_format: str = "fp32") -> torch.Tensor:
    """C [M, N] = blockfp8.gemm(*quantize_1x128(x, scale_format), b, b_scale), bitwise, in one launch
    where the decode kernel's own quantisation pays (see the module docstring), else in two.

    x [M, K]: bfloat16, float16 or float32, K contiguous. b [N, K] float8_e4m3fn, b_scale
    [ceil(N/128), K/128] float32. scale_format "fp32" or "ue8m0" (how x's 1x128 scales are formed).
    """
    if _eager(x):
        return _gemm_real(x, b, b_scale, out_dtype, scale_format)
    for t, name in ((x, "x"), (b, "b"), (b_scale, "b_scale")):
        _check_tensor(t, name, _FN)
    return torch.ops.blockfp8.gemm_bf16a(x, b, b_scale, out_dtype, scale_format)


def linear(x: torch.Tensor, weight: torch.Tensor, weight_scale: torch.Tensor, bias: Optional[torch.Tensor] = None,
           out_dtype: Optional[torch.dtype] = None, scale_format: str = "fp32") -> torch.Tensor:
    """A block-FP8 linear layer on unquantised activations: x [..., K] -> [..., N].

    weight [N, K] float8_e4m3fn with weight_scale [ceil(N/128), K/128] (128x128 blocks); x is
    quantised per token per 128 channels (scale_format "fp32" or DeepSeek-V3.1's "ue8m0") inside the
    GEMM where it can. out_dtype defaults to x's dtype (bf16 / fp16; fp32 x gives fp32). bias, if
    given, is added afterwards in out_dtype.
    """
    fn = "blockfp8.linear"
    _check_tensor(x, "x", fn)
    if x.dim() < 1:
        raise ValueError(f"{fn}: x must be [..., K], got a scalar")
    lead = _shape(x)[:-1]
    x2 = x.view(1, x.shape[-1]) if x.dim() == 1 else _rows(x, "x", fn)
    y = gemm_bf16a(x2, weight, weight_scale, out_dtype or x.dtype, scale_format)
    if bias is not None:
        y = y + bias
    return y.view(*lead, y.shape[-1])
