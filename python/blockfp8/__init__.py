"""blockfp8: block-scaled (1x128 activations, 128x128 weights) FP8 GEMM for NVIDIA Hopper.

    import blockfp8
    c = blockfp8.gemm(a, a_scale, b, b_scale, out_dtype=torch.bfloat16)
    a, a_scale = blockfp8.quantize_1x128(x)  # bf16 / fp16 / fp32 activations -> e4m3 + 1x128 scales
    y = blockfp8.linear(x, w, w_scale)       # from bf16 activations: quantised inside the GEMM

The C library is loaded on first use (see blockfp8._lib for where it is looked for); importing
needs neither a GPU nor the CUDA driver. The torch operators need torch >= 2.4; without torch only
the library-level helpers below are available.
"""
from ._lib import (  # noqa: F401
    BlockFP8Error,
    Config,
    config_name,
    library_path,
    plan,
    resolve,
    status_string,
    version,
)

__version__ = "0.1.0"

try:
    import torch as _torch  # noqa: F401
except ImportError:  # pragma: no cover
    _torch = None

if _torch is not None:
    from .ops import Weight, gemm, w8a8_block_fp8_matmul  # noqa: F401
    from .quant import quantize_1x128  # noqa: F401
    from .linear import gemm_bf16a, linear  # noqa: F401
