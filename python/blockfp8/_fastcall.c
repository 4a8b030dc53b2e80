/*
 * blockfp8._fastcall: the per-GEMM call into blockfp8_gemm without ctypes.
 *
 * ops.gemm calls blockfp8_gemm once per eager GEMM with 17 Python ints. Through ctypes each argument
 * goes through a from_param conversion and a libffi call frame is built (~1.3 us per call on the
 * development CPU); here the arguments are converted with PyLong_As*() and the function is called
 * directly (see _lib.fast_gemm_fn and the numbers in its comment).
 *
 * Built against the limited API (stable ABI, CPython >= 3.10: METH_FASTCALL is part of it since
 * 3.10), so one _fastcall.abi3.so serves every later CPython. It links neither libpython nor torch
 * nor libblockfp8: _lib.py passes the address of blockfp8_gemm from the library it loaded (ctypes)
 * to bind(), so the extension always calls that very library, $BLOCKFP8_LIBRARY included.
 *
 *   bind(address: int) -> None     the address of blockfp8_gemm (must not be 0)
 *   address() -> int               the bound address, 0 before bind()
 *   gemm(m, n, k, a, lda, a_scale, a_scale_stride_m, a_scale_stride_k, b, ldb, b_scale,
 *        b_scale_stride_n, b_scale_stride_k, c, ldc, c_dtype, stream) -> int (blockfp8_status_t)
 *     positional only, blockfp8_gemm's parameter order. int64 parameters: any int in int64 range;
 *     pointers and the stream: an int in [0, 2^64) or None (NULL), as ctypes' c_void_p takes them;
 *     c_dtype: an int in C int range. A wrong count or type raises TypeError, an out-of-range value
 *     OverflowError; nothing is called then. The GIL is kept: the call only enqueues work.
 *   API_VERSION: bumped whenever bind()/gemm() change meaning; _lib.py refuses a module whose
 *     version it does not know (and falls back to ctypes).
 *
 * State (the bound address) lives in the module object (multi-phase init), so every module object
 * created from this file is independent: a test can bind its own copy to a recorder.
 */
#define Py_LIMITED_API 0x030A0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <limits.h>
#include <stdint.h>

#define FASTCALL_API_VERSION 1

/* blockfp8_gemm's parameter list, with the types of its last two parameters (c_dtype, stream) left
 * open. The call is made through BLOCKFP8_GEMM_PARAMS(int, void*): blockfp8.h includes
 * <cuda_runtime_api.h> for cudaStream_t (an opaque pointer, struct CUstream_st*), and this module
 * must build without the CUDA headers. blockfp8_dtype_t / blockfp8_status_t are C enums whose
 * values fit an int: passed and returned like int on every supported ABI. When the CUDA headers are
 * available (the CMake build adds them and defines BLOCKFP8_FASTCALL_CHECK_HEADER), the header is
 * included and checked against this list at compile time (GCC / Clang builtins), so a change of
 * blockfp8_gemm's signature fails the build here instead of miscalling at run time. */
#define BLOCKFP8_GEMM_PARAMS(DTYPE_T, STREAM_T)                                     \
  int64_t /* m */, int64_t /* n */, int64_t /* k */,                                  \
  const void* /* a */, int64_t /* lda */,                                             \
  const float* /* a_scale */, int64_t /* a_scale_stride_m */, int64_t /* a_scale_stride_k */, \
  const void* /* b */, int64_t /* ldb */,                                             \
  const float* /* b_scale */, int64_t /* b_scale_stride_n */, int64_t /* b_scale_stride_k */, \
  void* /* c */, int64_t /* ldc */, DTYPE_T /* c_dtype */, STREAM_T /* stream */

typedef int (*gemm_fn_t)(BLOCKFP8_GEMM_PARAMS(int, void*));
#define GEMM_NARGS 17

#if defined(BLOCKFP8_FASTCALL_CHECK_HEADER) && BLOCKFP8_FASTCALL_CHECK_HEADER && defined(__GNUC__)
#include "blockfp8/blockfp8.h"
typedef blockfp8_status_t (*gemm_header_fn_t)(BLOCKFP8_GEMM_PARAMS(blockfp8_dtype_t, cudaStream_t));
_Static_assert(__builtin_types_compatible_p(__typeof__(&blockfp8_gemm), gemm_header_fn_t),
               "blockfp8_gemm's declaration in blockfp8.h changed: update BLOCKFP8_GEMM_PARAMS, gemm() "
               "below and FASTCALL_API_VERSION");
_Static_assert(sizeof(cudaStream_t) == sizeof(void*) && _Alignof(cudaStream_t) == _Alignof(void*),
               "cudaStream_t is passed as void*");
_Static_assert(sizeof(blockfp8_dtype_t) == sizeof(int) && sizeof(blockfp8_status_t) == sizeof(int),
               "blockfp8_dtype_t / blockfp8_status_t are passed as int");
#endif

_Static_assert(sizeof(void*) == sizeof(unsigned long long), "pointers are converted from unsigned long long");
_Static_assert(sizeof(int64_t) == sizeof(long long), "int64_t is converted from long long");

typedef struct {
  gemm_fn_t gemm;
} fastcall_state;

static inline fastcall_state* state_of(PyObject* module) {
  return (fastcall_state*)PyModule_GetState(module);
}

/* Argument conversions. Each returns its value and sets *err (leaving the exception set) on failure;
 * the error value (-1 / all ones) is also a valid value, so PyErr_Occurred() is asked only then. */
static inline long long as_i64(PyObject* o, int* err) {
  long long v = PyLong_AsLongLong(o); /* ints and __index__ objects; TypeError / OverflowError */
  if (v == -1 && PyErr_Occurred()) *err = 1;
  return v;
}

/* A pointer (or the stream): an int in [0, 2^64) or None (NULL), what ctypes' c_void_p takes. */
static inline void* as_ptr(PyObject* o, int* err) {
  if (o == Py_None) return NULL;
  if (Py_TYPE(o) != &PyLong_Type && !PyLong_Check(o)) { /* else PyLong_AsUnsignedLongLong: SystemError */
    PyErr_Format(PyExc_TypeError, "blockfp8._fastcall.gemm: a pointer must be an int or None, not %R",
                 (PyObject*)Py_TYPE(o));
    *err = 1;
    return NULL;
  }
  unsigned long long v = PyLong_AsUnsignedLongLong(o); /* OverflowError when < 0 or >= 2^64 */
  if (v == (unsigned long long)-1 && PyErr_Occurred()) *err = 1;
  return (void*)(uintptr_t)v;
}

static PyObject* fc_gemm(PyObject* module, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != GEMM_NARGS) {
    PyErr_Format(PyExc_TypeError, "blockfp8._fastcall.gemm() takes exactly %d arguments (%zd given)",
                 GEMM_NARGS, nargs);
    return NULL;
  }
  gemm_fn_t fn = state_of(module)->gemm;
  if (fn == NULL) {
    PyErr_SetString(PyExc_RuntimeError, "blockfp8._fastcall.gemm() called before bind()");
    return NULL;
  }
  /* In parameter order; the first failure returns (no C API call is made with an exception set). */
  int err = 0;
#define I64(var, idx) long long var = as_i64(args[idx], &err); if (err) return NULL
#define PTR(var, idx) void* var = as_ptr(args[idx], &err); if (err) return NULL
  I64(m, 0); I64(n, 1); I64(k, 2);
  PTR(a, 3); I64(lda, 4);
  PTR(a_scale, 5); I64(sam, 6); I64(sak, 7);
  PTR(b, 8); I64(ldb, 9);
  PTR(b_scale, 10); I64(sbn, 11); I64(sbk, 12);
  PTR(c, 13); I64(ldc, 14); I64(dtype, 15);
  PTR(stream, 16);
#undef I64
#undef PTR
  if (dtype < INT_MIN || dtype > INT_MAX) {
    PyErr_SetString(PyExc_OverflowError, "blockfp8._fastcall.gemm: c_dtype out of C int range");
    return NULL;
  }
  int status = fn(m, n, k, a, lda, (const float*)a_scale, sam, sak, b, ldb, (const float*)b_scale, sbn, sbk,
                  c, ldc, (int)dtype, stream);
  return PyLong_FromLong(status);
}

static PyObject* fc_bind(PyObject* module, PyObject* address) {
  if (!PyLong_Check(address)) {
    PyErr_Format(PyExc_TypeError, "blockfp8._fastcall.bind: address must be an int, not %R",
                 (PyObject*)Py_TYPE(address));
    return NULL;
  }
  unsigned long long v = PyLong_AsUnsignedLongLong(address);
  if (v == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
  if (v == 0) {
    PyErr_SetString(PyExc_ValueError, "blockfp8._fastcall.bind: address 0");
    return NULL;
  }
  /* Object pointer -> function pointer: what dlsym() users do; defined on every POSIX platform. */
  state_of(module)->gemm = (gemm_fn_t)(uintptr_t)v;
  Py_RETURN_NONE;
}

static PyObject* fc_address(PyObject* module, PyObject* unused) {
  (void)unused;
  return PyLong_FromUnsignedLongLong((unsigned long long)(uintptr_t)state_of(module)->gemm);
}

static PyMethodDef fc_methods[] = {
    {"gemm", (PyCFunction)(void (*)(void))fc_gemm, METH_FASTCALL,
     "gemm(m, n, k, a, lda, a_scale, a_scale_stride_m, a_scale_stride_k, b, ldb, b_scale, "
     "b_scale_stride_n, b_scale_stride_k, c, ldc, c_dtype, stream) -> int\n\n"
     "Call the bound blockfp8_gemm; returns its blockfp8_status_t."},
    {"bind", fc_bind, METH_O, "bind(address: int) -> None\n\nThe address of blockfp8_gemm to call."},
    {"address", fc_address, METH_NOARGS, "address() -> int\n\nThe bound address (0 before bind())."},
    {NULL, NULL, 0, NULL},
};

static int fc_exec(PyObject* module) {
  state_of(module)->gemm = NULL;
  return PyModule_AddIntConstant(module, "API_VERSION", FASTCALL_API_VERSION);
}

static PyModuleDef_Slot fc_slots[] = {
    {Py_mod_exec, (void*)fc_exec},
    {0, NULL},
};

static struct PyModuleDef fc_module = {
    PyModuleDef_HEAD_INIT,
    "blockfp8._fastcall",
    "blockfp8_gemm called without ctypes (see _fastcall.c). Loaded and bound by blockfp8._lib.",
    sizeof(fastcall_state),
    fc_methods,
    fc_slots,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__fastcall(void) { return PyModuleDef_Init(&fc_module); }
