"""ctypes binding of the blockfp8 C ABI (include/blockfp8/blockfp8.h).

Loading needs neither a GPU nor libcuda: the library links the CUDA runtime statically and the
runtime opens the driver only on the first CUDA call. Nothing here imports torch.

Where the library is looked for, first hit wins:
  1. $BLOCKFP8_LIBRARY, the path of the .so (an error if set and unloadable: no silent fallback);
  2. libblockfp8.so inside this package (what `pip install .` installs);
  3. build*/libblockfp8.so of the source tree this package lives in (dev mode), newest first.
"""
from __future__ import annotations

import ctypes
import glob
import os
import threading
from ctypes import POINTER, Structure, c_char_p, c_int, c_int32, c_int64, c_size_t, c_void_p
from typing import Optional

__all__ = [
    "BlockFP8Error",
    "Config",
    "STATUS_NAMES",
    "DTYPE_BF16",
    "DTYPE_FP16",
    "DTYPE_FP32",
    "KERNEL_AUTO",
    "KERNEL_SWAPAB_SPLITK",
    "KERNEL_SIMT",
    "KERNEL_TILED",
    "SCALE_FP32",
    "SCALE_UE8M0",
    "lib",
    "library_path",
    "check",
    "status_string",
    "version",
    "plan",
    "config_name",
    "has_symbol",
]

# blockfp8_status_t, in header order. tests/python/test_cpu.py checks this table against the header.
STATUS_NAMES = (
    "BLOCKFP8_SUCCESS",
    "BLOCKFP8_ERROR_NULL_POINTER",
    "BLOCKFP8_ERROR_INVALID_SHAPE",
    "BLOCKFP8_ERROR_K_NOT_MULTIPLE_OF_128",
    "BLOCKFP8_ERROR_INVALID_STRIDE",
    "BLOCKFP8_ERROR_MISALIGNED",
    "BLOCKFP8_ERROR_INVALID_DTYPE",
    "BLOCKFP8_ERROR_ALIASING",
    "BLOCKFP8_ERROR_UNSUPPORTED_DEVICE",
    "BLOCKFP8_ERROR_INVALID_CONFIG",
    "BLOCKFP8_ERROR_CUDA",
    "BLOCKFP8_ERROR_INVALID_VALUE",
)
(SUCCESS, ERROR_NULL_POINTER, ERROR_INVALID_SHAPE, ERROR_K_NOT_MULTIPLE_OF_128, ERROR_INVALID_STRIDE,
 ERROR_MISALIGNED, ERROR_INVALID_DTYPE, ERROR_ALIASING, ERROR_UNSUPPORTED_DEVICE, ERROR_INVALID_CONFIG,
 ERROR_CUDA, ERROR_INVALID_VALUE) = range(len(STATUS_NAMES))

DTYPE_BF16, DTYPE_FP16, DTYPE_FP32 = 0, 1, 2
KERNEL_AUTO, KERNEL_SWAPAB_SPLITK, KERNEL_SIMT, KERNEL_TILED = 0, 1, 2, 3
SCALE_FP32, SCALE_UE8M0 = 0, 1  # blockfp8_scale_format_t

_LIBNAME = "libblockfp8.so"
_PKG_DIR = os.path.dirname(os.path.abspath(__file__))
# python/blockfp8/_lib.py -> the source tree's root (meaningful in dev mode only).
_REPO_ROOT = os.path.dirname(os.path.dirname(_PKG_DIR))


class BlockFP8Error(RuntimeError):
    """A blockfp8 C function returned a status other than BLOCKFP8_SUCCESS."""

    def __init__(self, status: int, function: str = "", detail: str = ""):
        self.status = int(status)
        self.name = STATUS_NAMES[self.status] if 0 <= self.status < len(STATUS_NAMES) else f"UNKNOWN_STATUS_{self.status}"
        try:
            self.message = status_string(self.status)
        except Exception:  # the library itself failed to load: still report the code
            self.message = "?"
        where = f"{function}: " if function else ""
        extra = f" ({detail})" if detail else ""
        super().__init__(f"{where}{self.name} ({self.status}): {self.message}{extra}")


class Config(Structure):
    """blockfp8_config_t."""

    _fields_ = [("kernel", c_int32), ("token_tile", c_int32), ("split_k", c_int32), ("stages", c_int32),
                ("warpgroups", c_int32), ("weight_rows", c_int32),
                ("stage_kblocks", c_int32), ("flags", c_int32)]

    def __repr__(self) -> str:
        return "Config(" + ", ".join(f"{f}={getattr(self, f)}" for f, _ in self._fields_) + ")"


_I64, _PTR, _ST = c_int64, c_void_p, c_int  # pointers are passed as integers (tensor.data_ptr())
_GEMM_ARGS = [_I64, _I64, _I64,           # m, n, k
              _PTR, _I64,                 # a, lda
              _PTR, _I64, _I64,           # a_scale, stride_m, stride_k
              _PTR, _I64,                 # b, ldb
              _PTR, _I64, _I64,           # b_scale, stride_n, stride_k
              _PTR, _I64, c_int]          # c, ldc, c_dtype
_SIGNATURES = {
    "blockfp8_status_string": ([c_int], c_char_p),
    "blockfp8_version_string": ([], c_char_p),
    "blockfp8_gemm": (_GEMM_ARGS + [_PTR], _ST),
    "blockfp8_gemm_ex": (_GEMM_ARGS + [POINTER(Config), _PTR], _ST),
    "blockfp8_gemm_plan": ([_I64, _I64, _I64, POINTER(Config)], _ST),
    "blockfp8_config_name": ([POINTER(Config), c_char_p, c_size_t], c_int),
}
# Entry points bound only when the loaded library exports them (an older library still loads).
_OPTIONAL_SIGNATURES: dict = {
    "blockfp8_quantize_1x128": ([_I64, _I64,            # m, k
                                 _PTR, _I64, c_int,     # x, ldx, x_dtype
                                 _PTR, _I64,            # x_q, ldq
                                 _PTR, _I64, _I64,      # scales, stride_m, stride_k
                                 c_int, _PTR], _ST),    # scale format, stream
}

# Hot-path bindings of the same symbols (ops.py calls these per GEMM): ctypes converts an argument
# with c_void_p.from_param about twice as fast as with c_int64.from_param, which makes the 17-argument
# call ~1 us cheaper (2.25 -> 1.3 us measured). On every LP64 ABI (x86-64 SysV, AArch64) a 64-bit
# integer and a pointer are passed identically, so int64 parameters are declared c_void_p here; the
# c_int parameters keep their type. Set as attributes of the CDLL (`lib().fast_gemm`).
_FAST_ATTRS = {"fast_gemm": "blockfp8_gemm"}
_FAST_OK = ctypes.sizeof(c_void_p) == ctypes.sizeof(c_int64) == 8


def _fast(dll: ctypes.CDLL, name: str):
    args, res = _SIGNATURES[name]
    if not _FAST_OK:  # pragma: no cover (not an LP64 platform): the exact prototype
        return getattr(dll, name)
    fn = dll[name]  # __getitem__: a new function object, not the cached dll.<name>
    fn.argtypes = [c_void_p if t is c_int64 else t for t in args]
    fn.restype = res
    return fn


_lock = threading.Lock()
_lib: Optional[ctypes.CDLL] = None
_lib_path: Optional[str] = None


def _candidates() -> list:
    env = os.environ.get("BLOCKFP8_LIBRARY")
    if env:
        return [env]
    out = []
    pkg = os.path.join(_PKG_DIR, _LIBNAME)
    if os.path.exists(pkg):
        out.append(pkg)
    found = [p for p in glob.glob(os.path.join(_REPO_ROOT, "build*", _LIBNAME)) if os.path.exists(p)]
    found.sort(key=lambda p: os.path.getmtime(os.path.realpath(p)), reverse=True)
    return out + found


def _bind(dll: ctypes.CDLL) -> None:
    for name, (args, res) in _SIGNATURES.items():
        fn = getattr(dll, name)  # AttributeError: an incompatible library, reported by load()
        fn.argtypes, fn.restype = args, res
    for name, (args, res) in _OPTIONAL_SIGNATURES.items():
        if hasattr(dll, name):
            fn = getattr(dll, name)
            fn.argtypes, fn.restype = args, res
    for attr, name in _FAST_ATTRS.items():
        setattr(dll, attr, _fast(dll, name))


def lib() -> ctypes.CDLL:
    """The loaded library (loaded and bound on first use)."""
    global _lib, _lib_path
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is not None:
            return _lib
        cands = _candidates()
        if not cands:
            raise OSError(
                f"blockfp8: {_LIBNAME} not found. Install the package (pip install .), set "
                f"BLOCKFP8_LIBRARY=/path/to/{_LIBNAME}, or build it into {_REPO_ROOT}/build*/.")
        errors = []
        for path in cands:
            try:
                dll = ctypes.CDLL(path)
                _bind(dll)
            except (OSError, AttributeError) as e:
                errors.append(f"{path}: {e}")
                if os.environ.get("BLOCKFP8_LIBRARY"):
                    break
                continue
            _lib, _lib_path = dll, path
            return dll
        raise OSError("blockfp8: could not load the library:\n  " + "\n  ".join(errors))


def library_path() -> str:
    """Path of the loaded library (loads it)."""
    lib()
    return _lib_path  # type: ignore[return-value]


def has_symbol(name: str) -> bool:
    """Whether the loaded library exports `name` (e.g. an optional entry point)."""
    return hasattr(lib(), name)


def status_string(status: int) -> str:
    s = lib().blockfp8_status_string(int(status))
    return s.decode() if s is not None else ""


def check(status: int, function: str = "", detail: str = "") -> None:
    """Raise BlockFP8Error unless status is BLOCKFP8_SUCCESS."""
    if status != 0:
        raise BlockFP8Error(status, function, detail)


def version() -> str:
    return lib().blockfp8_version_string().decode()


def plan(m: int, n: int, k: int) -> Config:
    """What the dispatcher would run for (m, n, k) on the current CUDA device."""
    cfg = Config()
    check(lib().blockfp8_gemm_plan(m, n, k, ctypes.byref(cfg)), "blockfp8_gemm_plan")
    return cfg


def config_name(cfg: Config) -> str:
    size = 64
    while True:
        buf = ctypes.create_string_buffer(size)
        need = lib().blockfp8_config_name(ctypes.byref(cfg), buf, size)
        if need < 0:
            raise BlockFP8Error(ERROR_INVALID_VALUE, "blockfp8_config_name")
        if need < size:
            return buf.value.decode()
        size = need + 1
