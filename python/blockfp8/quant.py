"""The activation quantiser: blockfp8.quantize_1x128, a torch.library custom op with a fake impl.

    x_q, scales = blockfp8.quantize_1x128(x)                      # x [..., K] bf16 / fp16 / fp32
    c = blockfp8.gemm(x_q, scales, w, w_scale)                    # (2-D x)

Numerically identical to vLLM's per_token_group_quant_fp8(x, 128) (eps 1e-10, fp8 max 448; the
formula is in include/blockfp8/blockfp8.h). Registered operator:
  blockfp8::quantize_1x128(Tensor x, str scale_format, bool column_major_scales) -> (Tensor, Tensor)
Same calling rules as blockfp8.gemm: eager calls on real tensors go straight to C; compile, tracing
and dispatch modes see the operator. Runs on x's device and current stream; never synchronises.
"""
from __future__ import annotations

import torch

from . import _lib
from .ops import _check_devices, _check_tensor, _eager, _get_device, _rows, _shape, _stream

__all__ = ["quantize_1x128"]

_FP8 = torch.float8_e4m3fn
_BLOCK = 128
_IN_DTYPES = {torch.bfloat16: _lib.DTYPE_BF16, torch.float16: _lib.DTYPE_FP16, torch.float32: _lib.DTYPE_FP32}
_FORMATS = {"fp32": _lib.SCALE_FP32, "ue8m0": _lib.SCALE_UE8M0}
_FN = "blockfp8.quantize_1x128"


def _check(x, scale_format, fn=_FN):
    """dtype / shape / stride / format rules (no device access: fake-safe). Returns (x2d, M, K, fmt)."""
    _check_tensor(x, "x", fn)
    fmt = _FORMATS.get(scale_format) if isinstance(scale_format, str) else None
    if fmt is None:
        raise ValueError(f"{fn}: scale_format must be 'fp32' or 'ue8m0', got {scale_format!r}")
    if x.dtype not in _IN_DTYPES:
        raise TypeError(f"{fn}: x must have dtype bfloat16, float16 or float32, got {x.dtype}")
    if x.dim() < 1:
        raise ValueError(f"{fn}: x must be [..., K], got a scalar")
    k = x.shape[-1]
    if k <= 0 or k % _BLOCK != 0:
        raise ValueError(f"{fn}: K (x's last dimension) must be a positive multiple of 128, got shape {_shape(x)}")
    if x.stride(-1) != 1 and x.numel() > 0:
        raise ValueError(f"{fn}: x must be contiguous along K (stride(-1) == 1), got strides {x.stride()}")
    x2 = _rows(x, "x", fn) if x.dim() != 1 else x.view(1, k)
    m = x2.shape[0]
    if m > 1 and x2.stride(0) < k:
        raise ValueError(f"{fn}: x's row stride must be >= K={k}, got strides {x.stride()}")
    return x2, m, k, fmt


def _outputs(x, m, k, column_major_scales):
    """x_q like x (dense), scales x.shape[:-1] + (K/128,) fp32, row- or column-major over the rows."""
    lead = _shape(x)[:-1]
    kb = k // _BLOCK
    x_q = x.new_empty(_shape(x), dtype=_FP8)
    if column_major_scales:
        # strides (1, M rounded up to 4): TMA-aligned (16-byte columns), DeepGEMM's layout, which the
        # tiled kernel fetches with one TMA request a k-block; the padding rows are never written.
        m4 = (m + 3) // 4 * 4
        scales = x.new_empty((kb, m4), dtype=torch.float32).t()[:m]
        scales = scales.view(*lead, kb) if len(lead) != 1 else scales
    else:
        scales = x.new_empty((*lead, kb), dtype=torch.float32)
    return x_q, scales


def _quantize_real(x, scale_format, column_major_scales, fn=_FN):
    x2, m, k, fmt = _check(x, scale_format, fn)
    index = _check_devices(fn, (x, "x"))
    x_q, scales = _outputs(x, m, k, column_major_scales)
    if m == 0:
        return x_q, scales
    c = _lib.lib()
    if not hasattr(c, "blockfp8_quantize_1x128"):
        raise RuntimeError(f"{fn}: the loaded library ({_lib.library_path()}) has no blockfp8_quantize_1x128")
    ldx = x2.stride(0) if m > 1 else k
    s2 = scales.view(m, k // _BLOCK)
    ss_m, ss_k = s2.stride()
    args = (m, k, x2.data_ptr(), ldx, _IN_DTYPES[x.dtype], x_q.data_ptr(), k, scales.data_ptr(), ss_m, ss_k, fmt)
    if _get_device() == index:
        status = c.blockfp8_quantize_1x128(*args, _stream(index))
    else:
        with torch.cuda.device(index):
            status = c.blockfp8_quantize_1x128(*args, _stream(index))
    if status != 0:
        raise _lib.BlockFP8Error(status, "blockfp8_quantize_1x128", f"{fn}(M={m}, K={k}) on cuda:{index}")
    return x_q, scales


@torch.library.custom_op(
    "blockfp8::quantize_1x128", mutates_args=(),
    schema="(Tensor x, str scale_format, bool column_major_scales) -> (Tensor, Tensor)")
def _quantize_op(x, scale_format, column_major_scales):
    return _quantize_real(x, scale_format, column_major_scales)


@_quantize_op.register_fake
def _quantize_fake(x, scale_format, column_major_scales):
    _, m, k, _ = _check(x, scale_format)
    return _outputs(x, m, k, column_major_scales)


def quantize_1x128(x: torch.Tensor, scale_format: str = "fp32", column_major_scales: bool = False):
    """Quantise activations to e4m3 with one fp32 scale per 1x128 group: returns (x_q, scales).

    x [..., K]: bfloat16, float16 or float32, K % 128 == 0, K contiguous (leading dims flattened
    without a copy). x_q: float8_e4m3fn, x's shape, dense. scales: float32, x.shape[:-1] + (K/128,),
    row-major, or column-major over the flattened rows when column_major_scales (strides (1, M
    rounded up to 4): TMA-aligned, as DeepGEMM-style GEMMs read it).
    scale_format: "fp32" (s = amax / 448) or "ue8m0" (s rounded up to a power of two, DeepSeek-V3.1's
    scale_fmt ue8m0). x ~= x_q * s; the pair is blockfp8.gemm's (a, a_scale).
    """
    if _eager(x):
        return _quantize_real(x, scale_format, column_major_scales)
    _check_tensor(x, "x", _FN)
    return torch.ops.blockfp8.quantize_1x128(x, scale_format, column_major_scales)
