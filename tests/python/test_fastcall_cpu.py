"""CPU tests of the optional extension blockfp8._fastcall (python/blockfp8/_fastcall.c), through
which ops.gemm calls blockfp8_gemm without ctypes, and of its loading in _lib (fast_gemm_fn).

The extension is bound to a ctypes callback with blockfp8_gemm's C signature that records what it
receives, so every check is of the values the C side gets. Each test loads its own module object
(multi-phase init: the bound address is per module object), so the copy _lib bound to the real
library is never rebound. Tests of the extension skip when it was not built (no Python headers);
the fallback tests run either way.
"""
import ctypes
import importlib.util
import os
from ctypes import c_int, c_int64, c_void_p

import pytest
import torch

import blockfp8
from blockfp8 import _lib, ops
from conftest import FP8

_ARGTYPES = [c_int64, c_int64, c_int64,            # m, n, k
             c_void_p, c_int64,                    # a, lda
             c_void_p, c_int64, c_int64,           # a_scale, strides
             c_void_p, c_int64,                    # b, ldb
             c_void_p, c_int64, c_int64,           # b_scale, strides
             c_void_p, c_int64, c_int, c_void_p]   # c, ldc, c_dtype, stream
_GEMM_CB = ctypes.CFUNCTYPE(c_int, *_ARGTYPES)
_PTR_SLOTS = (3, 5, 8, 10, 13, 16)


def _ext_path():
    for p in _lib._fastcall_candidates(_lib.library_path()):
        if os.path.isfile(p):
            return p
    return None


def _fresh_module(path):
    spec = importlib.util.spec_from_file_location(_lib._FASTCALL_NAME, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture
def ext():
    path = _ext_path()
    if path is None:
        pytest.skip(f"{_lib._FASTCALL_FILE} was not built (no Python >= 3.10 headers at configure time?)")
    return _fresh_module(path)


class Recorder:
    """A C function with blockfp8_gemm's signature (ctypes callback): records, returns `status`.
    Pointers arrive as int, or None for NULL (ctypes' c_void_p)."""

    def __init__(self, status=0):
        self.calls, self.status = [], status

        def cb(*args):
            self.calls.append(args)
            return self.status
        self.cfunc = _GEMM_CB(cb)  # kept alive as long as the recorder
        self.address = ctypes.cast(self.cfunc, c_void_p).value


@pytest.fixture
def bound(ext):
    rec = Recorder()
    ext.bind(rec.address)
    return ext, rec


# Extreme values in every slot: int64 limits, -1 (the C API's error value: must still pass through),
# pointers at and above 2^63 up to 2^64 - 1, and a stream of 0.
ARGS = (-2**63, 2**63 - 1, 128,
        2**64 - 1, -1,
        2**63, 0, 7,
        0x7F00DEADBEEF, 4096,
        2**63 + 16, 3, -5,
        0x1000, 2112, 2**31 - 1, 0)


def _expected(args):
    return tuple(None if i in _PTR_SLOTS and v == 0 else v for i, v in enumerate(args))  # NULL -> None


def test_module_file(ext):
    assert ext.__file__.endswith(".abi3.so")
    assert ext.API_VERSION == _lib._FASTCALL_API
    assert ext.address() == 0  # a fresh module object is unbound
    with open(ext.__file__, "rb") as f:
        data = f.read()
    for lib in (b"libpython", b"libtorch", b"libblockfp8", b"libcuda"):
        assert lib not in data, f"{ext.__file__} refers to {lib.decode()}"


def test_arguments_reach_c_exactly(bound):
    ext, rec = bound
    assert ext.address() == rec.address
    rec.status = 7
    assert ext.gemm(*ARGS) == 7
    assert rec.calls == [_expected(ARGS)]
    rec.status = 0
    args = (1, 2112, 7168, 0x7F0000000000, 7168, 0x7F0000100000, 56, 1, 0x7F0000200000, 7168,
            0x7F0000300000, 56, 1, 0x7F0000400000, 2112, _lib.DTYPE_BF16, 0x55AA55AA5500)
    assert ext.gemm(*args) == 0
    assert rec.calls[-1] == args


def test_none_is_null(bound):
    ext, rec = bound
    args = list(ARGS)
    for i in _PTR_SLOTS:
        args[i] = None
    ext.gemm(*args)
    assert rec.calls == [tuple(args)]


def test_index_objects_and_bools_are_ints(bound):
    ext, rec = bound

    class Idx:
        def __index__(self):
            return 42
    args = list(ARGS)
    args[0], args[15] = Idx(), True
    ext.gemm(*args)
    assert rec.calls[-1][0] == 42 and rec.calls[-1][15] == 1


def test_status_matches_ctypes_on_the_real_library(ext):
    # An invalid shape straight into C (as test_cpu.test_c_status_is_raised_not_swallowed does).
    ext.bind(ctypes.cast(_lib.lib().blockfp8_gemm, c_void_p).value)
    bad = (-1, 0, 100, None, 0, None, 0, 0, None, 0, None, 0, 0, None, 0, 0, None)
    status = ext.gemm(*bad)
    assert status != _lib.SUCCESS and status == _lib.lib().fast_gemm(*bad)


@pytest.mark.parametrize("nargs", [0, 16, 18])
def test_wrong_argument_count(bound, nargs):
    ext, rec = bound
    with pytest.raises(TypeError, match="17 arguments"):
        ext.gemm(*(ARGS + ARGS)[:nargs])
    assert rec.calls == []


def test_keywords_refused(bound):
    ext, rec = bound
    with pytest.raises(TypeError):
        ext.gemm(*ARGS[:16], stream=0)
    assert rec.calls == []


BAD_VALUES = [
    ("float_int64", 0, 1.0, TypeError),
    ("str_int64", 4, "7168", TypeError),
    ("none_int64", 14, None, TypeError),
    ("int64_too_big", 1, 2**63, OverflowError),
    ("int64_too_small", 2, -2**63 - 1, OverflowError),
    ("float_pointer", 3, 1.0, TypeError),
    ("str_pointer", 16, "0", TypeError),
    ("negative_pointer", 5, -1, OverflowError),
    ("pointer_too_big", 13, 2**64, OverflowError),
    ("dtype_too_big", 15, 2**31, OverflowError),
    ("dtype_float", 15, 0.0, TypeError),
]


@pytest.mark.parametrize("slot,value,exc", [c[1:] for c in BAD_VALUES], ids=[c[0] for c in BAD_VALUES])
def test_bad_values_raise_and_call_nothing(bound, slot, value, exc):
    ext, rec = bound
    args = list(ARGS)
    args[slot] = value
    with pytest.raises(exc):
        ext.gemm(*args)
    assert rec.calls == []


def test_unbound_and_bad_bind(ext):
    with pytest.raises(RuntimeError, match="before bind"):
        ext.gemm(*ARGS)
    with pytest.raises(ValueError):
        ext.bind(0)
    with pytest.raises(TypeError):
        ext.bind("0x1000")
    with pytest.raises(OverflowError):
        ext.bind(-1)
    assert ext.address() == 0


def test_module_objects_are_independent(bound):
    ext, rec = bound
    other = _fresh_module(ext.__file__)
    assert other.address() == 0 and ext.address() == rec.address
    if _lib.fastcall_module() is not None:  # _lib's copy still calls the real library
        assert _lib.fastcall_module().address() == ctypes.cast(_lib.lib().blockfp8_gemm, c_void_p).value


# ---------------------------------------------------------------------------------------------
# Loading (_lib.fast_gemm_fn) and the fallback to ctypes
# ---------------------------------------------------------------------------------------------

def test_fast_gemm_fn_is_the_extension_when_built(monkeypatch):
    monkeypatch.delenv("BLOCKFP8_NO_FASTCALL", raising=False)
    monkeypatch.setattr(_lib, "_fastcall", None)  # load afresh; restored afterwards
    fn = _lib.fast_gemm_fn()
    if _ext_path() is None:
        assert fn is _lib.lib().fast_gemm and _lib.fastcall_status().startswith("ctypes")
        pytest.skip(f"{_lib._FASTCALL_FILE} was not built: checked the fallback only")
    mod = _lib.fastcall_module()
    assert mod is not None and fn == mod.gemm
    assert _lib.fastcall_status() == f"extension {_ext_path()}"
    assert mod.address() == ctypes.cast(_lib.lib().blockfp8_gemm, c_void_p).value
    assert _lib.fast_gemm_fn() is fn  # cached


def test_no_fastcall_env_forces_ctypes(monkeypatch):
    monkeypatch.setenv("BLOCKFP8_NO_FASTCALL", "1")
    monkeypatch.setattr(_lib, "_fastcall", None)
    assert _lib.fast_gemm_fn() is _lib.lib().fast_gemm
    assert _lib.fastcall_module() is None
    assert _lib.fastcall_status() == "ctypes (BLOCKFP8_NO_FASTCALL=1)"
    monkeypatch.setattr(ops, "_gemm_c", None)
    assert ops._bind_gemm_c() is _lib.lib().fast_gemm and ops._gemm_c is _lib.lib().fast_gemm


def test_missing_or_broken_extension_falls_back(monkeypatch, tmp_path):
    monkeypatch.delenv("BLOCKFP8_NO_FASTCALL", raising=False)
    monkeypatch.setattr(_lib, "_PKG_DIR", str(tmp_path))
    fake_lib = str(tmp_path / "libblockfp8.so")
    mod, why = _lib._load_fastcall(_lib.lib(), fake_lib)
    assert mod is None and "not found" in why
    (tmp_path / _lib._FASTCALL_FILE).write_bytes(b"not an ELF file")
    mod, why = _lib._load_fastcall(_lib.lib(), fake_lib)
    assert mod is None and str(tmp_path / _lib._FASTCALL_FILE) in why and "Error" in why


def test_stale_api_version_falls_back(monkeypatch, tmp_path):
    path = _ext_path()
    if path is None:
        pytest.skip(f"{_lib._FASTCALL_FILE} was not built")
    monkeypatch.delenv("BLOCKFP8_NO_FASTCALL", raising=False)
    monkeypatch.setattr(_lib, "_FASTCALL_API", _lib._FASTCALL_API + 1)
    mod, why = _lib._load_fastcall(_lib.lib(), _lib.library_path())
    assert mod is None and "API_VERSION" in why


# ---------------------------------------------------------------------------------------------
# The eager fast path through the extension: what ops.gemm passes reaches C unchanged
# ---------------------------------------------------------------------------------------------

def test_eager_gemm_through_the_extension(bound, monkeypatch):
    ext, rec = bound
    # CPU tensors look like tensors on cuda:0, the current device (as test_eager_cpu's fake_cuda).
    monkeypatch.setattr(torch.Tensor, "get_device", lambda self: 0 if self.device.type == "cpu" else -1)
    monkeypatch.setattr(ops, "_get_device", lambda: 0)
    monkeypatch.setattr(ops, "_stream", lambda index: 0xC0FFEE000)
    monkeypatch.setattr(ops, "_gemm_c", ext.gemm)
    m, n, k = 3, 200, 256
    a, b = torch.zeros(m, k, dtype=FP8), torch.zeros(n, k, dtype=FP8)
    a_scale = torch.ones(k // 128, m).t()  # column-major: strides (1, M)
    b_scale = torch.ones((n + 127) // 128, k // 128)
    c = blockfp8.gemm(a, a_scale, b, b_scale, out_dtype=torch.float16)
    assert rec.calls == [(m, n, k, a.data_ptr(), k, a_scale.data_ptr(), 1, m, b.data_ptr(), k,
                          b_scale.data_ptr(), 2, 1, c.data_ptr(), n, _lib.DTYPE_FP16, 0xC0FFEE000)]
    rec.status = _lib.ERROR_MISALIGNED
    with pytest.raises(blockfp8.BlockFP8Error) as ei:
        blockfp8.gemm(a, a_scale, b, b_scale, out=c)
    assert ei.value.status == _lib.ERROR_MISALIGNED and rec.calls[-1][13] == c.data_ptr()
