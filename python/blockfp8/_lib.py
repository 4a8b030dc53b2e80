"""ctypes binding of the blockfp8 C ABI (include/blockfp8/blockfp8.h).

Loading needs neither a GPU nor libcuda: the library links the CUDA runtime statically and the
runtime opens the driver only on the first CUDA call. Nothing here imports torch.

Where the library is looked for, first hit wins:
  1. $BLOCKFP8_LIBRARY, the path of the .so (an error if set and unloadable: no silent fallback);
  2. libblockfp8.so inside this package (what `pip install .` installs);
  3. build*/libblockfp8.so of the source tree this package lives in (dev mode), newest first.

The per-GEMM call (ops.gemm) goes through the optional CPython extension _fastcall.abi3.so
(python/blockfp8/_fastcall.c) when it is there, ctypes otherwise: see fast_gemm_fn().
"""
from __future__ import annotations

import ctypes
import glob
import importlib.machinery
import importlib.util
import os
import sys
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
    "KERNEL_WARP_MMA",
    "SCALE_FP32",
    "SCALE_UE8M0",
    "lib",
    "library_path",
    "check",
    "status_string",
    "version",
    "plan",
    "resolve",
    "config_name",
    "has_symbol",
    "fast_gemm_fn",
    "fastcall_status",
    "fastcall_module",
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
KERNEL_AUTO, KERNEL_SWAPAB_SPLITK, KERNEL_SIMT, KERNEL_TILED, KERNEL_WARP_MMA = 0, 1, 2, 3, 4
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
                ("stage_kblocks", c_int32), ("flags", c_int32), ("cluster_m", c_int32), ("cluster_n", c_int32)]

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
    "blockfp8_config_resolve": ([_I64, _I64, _I64, POINTER(Config)], _ST),
    "blockfp8_config_name": ([POINTER(Config), c_char_p, c_size_t], c_int),
}
# Entry points bound only when the loaded library exports them (an older library still loads).
_OPTIONAL_SIGNATURES: dict = {
    "blockfp8_quantize_1x128": ([_I64, _I64,            # m, k
                                 _PTR, _I64, c_int,     # x, ldx, x_dtype
                                 _PTR, _I64,            # x_q, ldq
                                 _PTR, _I64, _I64,      # scales, stride_m, stride_k
                                 c_int, _PTR], _ST),    # scale format, stream
    "blockfp8_gemm_bf16a": ([_I64, _I64, _I64,          # m, n, k
                             _PTR, _I64, c_int,         # x, ldx, x_dtype
                             _PTR, _I64,                # b, ldb
                             _PTR, _I64, _I64,          # b_scale, stride_n, stride_k
                             _PTR, _I64, c_int,         # c, ldc, c_dtype
                             c_int, _PTR, c_size_t,     # scale format, workspace, workspace bytes
                             _PTR], _ST),               # stream
    "blockfp8_gemm_bf16a_workspace_size": ([_I64, _I64, _I64, _PTR, _I64, c_int, _PTR, _I64,
                                            POINTER(c_size_t)], _ST),
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


def resolve(m: int, n: int, k: int, cfg: Config) -> Config:
    """A forced configuration as gemm_ex runs it on the current CUDA device: a copy of cfg with its
    0 (default) fields filled in (KERNEL_AUTO: the dispatcher's choice, as plan). Raises BlockFP8Error
    where it cannot run (m, n, k)."""
    out = Config.from_buffer_copy(cfg)
    check(lib().blockfp8_config_resolve(m, n, k, ctypes.byref(out)), "blockfp8_config_resolve")
    return out


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


# ----------------------------------------------------------------------------------------------
# The per-GEMM call without ctypes: blockfp8._fastcall (python/blockfp8/_fastcall.c), a CPython
# extension of the stable ABI that calls blockfp8_gemm through the address bound here, i.e. in the
# library lib() loaded. Per call it costs ~0.2 us where the ctypes call (fast_gemm) costs ~1.3 us
# (no-op C target, development CPU; ctypes measured about twice that on the target host); a whole
# eager gemm() on mocked CUDA tensors costs ~1.5 us less. Optional: where it is missing, broken or
# not wanted (BLOCKFP8_NO_FASTCALL=1, read on first use), ctypes is used, with the same arguments
# and results; fastcall_status() says which and why.
# ----------------------------------------------------------------------------------------------

_FASTCALL_FILE = "_fastcall.abi3.so"
_FASTCALL_NAME = "blockfp8._fastcall"
_FASTCALL_API = 1  # the API_VERSION of _fastcall.c this file speaks
# (library it belongs to, callable, bound module or None, status line); None until fast_gemm_fn().
_fastcall: Optional[tuple] = None


def _fastcall_candidates(lib_path: Optional[str]) -> list:
    """Next to the loaded library first (the package directory when installed, the build directory
    in dev mode), then the package directory."""
    dirs = []
    if lib_path:
        dirs += [os.path.dirname(os.path.abspath(lib_path)), os.path.dirname(os.path.realpath(lib_path))]
    dirs.append(_PKG_DIR)
    out = []
    for d in dirs:
        p = os.path.join(d, _FASTCALL_FILE)
        if p not in out:
            out.append(p)
    return out


def _load_fastcall(dll, lib_path: Optional[str]):
    """(module bound to dll's blockfp8_gemm, where from) or (None, why not). Never raises."""
    flag = os.environ.get("BLOCKFP8_NO_FASTCALL", "")
    if flag not in ("", "0"):
        return None, f"BLOCKFP8_NO_FASTCALL={flag}"
    if sys.implementation.name != "cpython" or sys.version_info < (3, 10) or not _FAST_OK:
        return None, "the extension needs CPython >= 3.10 on a 64-bit platform"
    cands = _fastcall_candidates(lib_path)
    path = next((p for p in cands if os.path.isfile(p)), None)
    if path is None:
        return None, f"{_FASTCALL_FILE} not found (looked for {', '.join(cands)})"
    try:
        loader = importlib.machinery.ExtensionFileLoader(_FASTCALL_NAME, path)
        spec = importlib.util.spec_from_file_location(_FASTCALL_NAME, path, loader=loader)
        mod = importlib.util.module_from_spec(spec)  # a new module object (multi-phase init)
        loader.exec_module(mod)
        api = getattr(mod, "API_VERSION", None)
        if api != _FASTCALL_API:
            raise ImportError(f"API_VERSION {api}, expected {_FASTCALL_API} (a stale build?)")
        mod.bind(ctypes.cast(dll.blockfp8_gemm, c_void_p).value)
    except Exception as e:  # noqa: BLE001 (any failure: fall back to ctypes)
        return None, f"{path}: {type(e).__name__}: {e}"
    return mod, path


def fast_gemm_fn():
    """The cheapest callable of blockfp8_gemm in the loaded library (loads it): the extension's
    gemm when it loads and binds, else the ctypes binding lib().fast_gemm. Both take blockfp8_gemm's
    17 arguments as Python ints (pointers and the stream may also be None) and return its status."""
    global _fastcall
    dll = lib()
    fc = _fastcall
    if fc is not None and fc[0] is dll:
        return fc[1]
    with _lock:
        if _fastcall is None or _fastcall[0] is not dll:
            mod, where = _load_fastcall(dll, _lib_path if dll is _lib else None)
            if mod is not None:
                _fastcall = (dll, mod.gemm, mod, f"extension {where}")
            else:
                _fastcall = (dll, dll.fast_gemm, None, f"ctypes ({where})")
        return _fastcall[1]


def fastcall_status() -> str:
    """Which call fast_gemm_fn() returns and why: 'extension <path>' or 'ctypes (<reason>)'."""
    fast_gemm_fn()
    return _fastcall[3]  # type: ignore[index]


def fastcall_module():
    """The bound blockfp8._fastcall module fast_gemm_fn() uses, or None (ctypes)."""
    fast_gemm_fn()
    return _fastcall[2]  # type: ignore[index]
