"""Route vLLM's block-FP8 Triton GEMM to blockfp8.

    import blockfp8.vllm
    blockfp8.vllm.install(max_m=64)      # calls with M <= 64 go to blockfp8, the rest stay on Triton
    ...
    blockfp8.vllm.uninstall()

    with blockfp8.vllm.installed():      # every eligible call, for the duration of the block
        ...

What is patched: the module attribute `w8a8_block_fp8_matmul` (older vLLM) and/or
`w8a8_triton_block_scaled_mm` (newer vLLM, same signature) of
vllm.model_executor.layers.quantization.utils.fp8_utils, plus any already-imported vllm module
that holds the same function object under that name (a `from ... import` done before install).
vLLM calls the function through those module globals, so the patch takes effect on the next call.

What is not: vLLM only reaches these functions on its Triton path. On Hopper with CUTLASS or
DeepGEMM available, W8A8BlockFp8LinearOp picks those instead and never calls them (see
docs/vllm.md). A call blockfp8 cannot serve (block size other than [128, 128], K % 128 != 0, a
dtype other than float8_e4m3fn, a non-CUDA or non-sm_90 device, M above the threshold) goes to
the original function unchanged.
"""
from __future__ import annotations

import contextlib
import importlib
import sys
from typing import Callable, Dict, Iterator, List, Optional, Tuple

import torch

from .ops import w8a8_block_fp8_matmul

__all__ = ["w8a8_block_fp8_matmul", "install", "uninstall", "installed", "is_installed", "stats", "FP8_UTILS", "NAMES"]

FP8_UTILS = "vllm.model_executor.layers.quantization.utils.fp8_utils"
NAMES = ("w8a8_block_fp8_matmul", "w8a8_triton_block_scaled_mm")

# (module object, attribute name) -> the original function, for uninstall().
_patched: Dict[Tuple[object, str], Callable] = {}
_hopper: Dict[int, bool] = {}
_counts = {"blockfp8": 0, "original": 0}


def _is_hopper(index: int) -> bool:
    ok = _hopper.get(index)
    if ok is None:
        ok = _hopper[index] = torch.cuda.get_device_capability(index) == (9, 0)
    return ok


def _eligible(A, B, block_size, max_m: Optional[int]) -> bool:
    try:
        if [int(x) for x in block_size] != [128, 128]:
            return False
    except TypeError:
        return False
    if not (isinstance(A, torch.Tensor) and isinstance(B, torch.Tensor)):
        return False
    if A.dtype != torch.float8_e4m3fn or B.dtype != torch.float8_e4m3fn or A.dim() < 1:
        return False
    k = A.shape[-1]
    if k <= 0 or k % 128 != 0 or not A.is_cuda or not _is_hopper(A.get_device()):
        return False
    if max_m is not None and A.numel() // k > max_m:
        return False
    return True


def _make_router(original: Callable, max_m: Optional[int]) -> Callable:
    def w8a8_block_fp8_matmul_routed(A, B, As, Bs, block_size, output_dtype=torch.float16):
        if _eligible(A, B, block_size, max_m):
            _counts["blockfp8"] += 1
            return w8a8_block_fp8_matmul(A, B, As, Bs, block_size, output_dtype)
        _counts["original"] += 1
        return original(A, B, As, Bs, block_size, output_dtype)

    w8a8_block_fp8_matmul_routed.__wrapped__ = original  # type: ignore[attr-defined]
    w8a8_block_fp8_matmul_routed.blockfp8_max_m = max_m  # type: ignore[attr-defined]
    return w8a8_block_fp8_matmul_routed


def install(max_m: Optional[int] = None) -> List[str]:
    """Patch vLLM so that eligible calls with M <= max_m (None: all) run on blockfp8.

    Returns the patched "module.attribute" names. Raises ImportError when vLLM is not importable and
    LookupError when its fp8_utils has none of NAMES. Installing again replaces the threshold."""
    if max_m is not None and max_m < 0:
        raise ValueError(f"blockfp8.vllm.install: max_m must be None or >= 0, got {max_m}")
    uninstall()
    fp8_utils = importlib.import_module(FP8_UTILS)
    originals = {name: getattr(fp8_utils, name) for name in NAMES if callable(getattr(fp8_utils, name, None))}
    if not originals:
        raise LookupError(f"blockfp8.vllm.install: {FP8_UTILS} defines none of {NAMES}")
    done = []
    for name, original in originals.items():
        router = _make_router(original, max_m)
        for mod in list(sys.modules.values()):
            mod_name = getattr(mod, "__name__", "") or ""
            if not mod_name.startswith("vllm"):
                continue
            if getattr(mod, name, None) is original:
                _patched[(mod, name)] = original
                setattr(mod, name, router)
                done.append(f"{mod_name}.{name}")
    return done


def uninstall() -> None:
    """Restore every function install() replaced (no-op when nothing is installed)."""
    while _patched:
        (mod, name), original = _patched.popitem()
        setattr(mod, name, original)


def stats(reset: bool = False) -> Dict[str, int]:
    """Calls the patch has seen since the last reset: {"blockfp8": routed, "original": fell through}.
    Zero routed calls after a run means vLLM never took its Triton path (see the module doc)."""
    out = dict(_counts)
    if reset:
        _counts.update(blockfp8=0, original=0)
    return out


def is_installed() -> bool:
    return bool(_patched)


@contextlib.contextmanager
def installed(max_m: Optional[int] = None) -> Iterator[List[str]]:
    """install(max_m) for the duration of a with-block, uninstall() after it."""
    names = install(max_m)
    try:
        yield names
    finally:
        uninstall()
