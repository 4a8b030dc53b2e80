// Argument checking for the C ABI: the contract in include/blockfp8/blockfp8.h, rule by rule.
//
// Order (the first violated rule wins): shape, dtype, pointers, strides (with byte extents), alignment,
// aliasing. No memory is dereferenced and no CUDA call is made.
//
// M == 0: the call is a no-op and A, a_scale and C describe no element, so nothing of them is checked
// (pointer, stride, alignment, overlap). B and b_scale are checked as always: the contract lets only
// A, a_scale and C be NULL when M == 0, and a caller's bad ldb should not depend on the batch size.
//
// The leading dimensions follow the contract literally (lda >= K, ldb >= K, ldc >= N, even for a
// single row); the extent-1 exemption applies to the scale strides, whose layouts vary by framework.
#include "validate.h"

#include <cstdint>
#include <initializer_list>
#include <limits>

namespace blockfp8::detail {
namespace {

constexpr int64_t kDimLimit = int64_t{1} << 31;
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

// out = a * b + c for non-negative operands; false if the result does not fit in int64.
bool mul_add(int64_t a, int64_t b, int64_t c, int64_t& out) {
  if (a != 0 && b > (kInt64Max - c) / a) return false;
  out = a * b + c;
  return true;
}

// A strided 2-D tensor: element (i, j) at ptr + (i * s_row + j * s_col) * elem bytes.
struct View {
  const void* ptr;
  int64_t rows, cols, s_row, s_col, elem;
};

// A dimension of extent 1 never uses its stride.
int64_t used_stride(int64_t extent, int64_t stride) { return extent > 1 ? stride : 0; }

// Scale strides: non-negative, and two non-zero strides must not map two elements to one address.
// Sorted by stride, the larger one must step over the whole span of the smaller dimension:
// s_big >= s_small * e_small (an interleaving layout that happens not to collide is also refused).
bool scale_strides_ok(const View& v) {
  const int64_t s_row = used_stride(v.rows, v.s_row), s_col = used_stride(v.cols, v.s_col);
  if (s_row < 0 || s_col < 0) return false;
  if (s_row == 0 || s_col == 0) return true;  // broadcast: shared addresses are intended
  const bool rows_small = s_row <= s_col;
  const int64_t s_small = rows_small ? s_row : s_col, e_small = rows_small ? v.rows : v.cols;
  const int64_t s_big = rows_small ? s_col : s_row;
  return s_small <= s_big / e_small;  // s_small * e_small <= s_big, without overflow
}

// The bytes [begin, begin + bytes) a view can touch. False if the extent overflows int64 or the
// range wraps around the address space. Strides must already be validated (non-negative where used).
struct Range {
  uint64_t begin, bytes;
};
bool byte_range(const View& v, Range& r) {
  int64_t last_in_row = 0, last = 0, bytes = 0;
  if (!mul_add(v.cols - 1, used_stride(v.cols, v.s_col), 0, last_in_row) ||
      !mul_add(v.rows - 1, used_stride(v.rows, v.s_row), last_in_row, last) || !mul_add(last, v.elem, v.elem, bytes))
    return false;
  r.begin = reinterpret_cast<uintptr_t>(v.ptr);
  r.bytes = uint64_t(bytes);
  return r.bytes <= std::numeric_limits<uint64_t>::max() - r.begin;
}

bool overlap(const Range& x, const Range& y) { return x.begin < y.begin + y.bytes && y.begin < x.begin + x.bytes; }

bool aligned(const void* ptr, int64_t bytes) { return reinterpret_cast<uintptr_t>(ptr) % uint64_t(bytes) == 0; }

}  // namespace

blockfp8_status_t validate_shape(int64_t m, int64_t n, int64_t k) {
  if (m < 0 || n < 1 || k < 1 || m >= kDimLimit || n >= kDimLimit || k >= kDimLimit) return BLOCKFP8_ERROR_INVALID_SHAPE;
  if (k % 128 != 0) return BLOCKFP8_ERROR_K_NOT_MULTIPLE_OF_128;
  return BLOCKFP8_SUCCESS;
}

blockfp8_status_t validate(const Problem& p) {
  // Shape.
  if (const blockfp8_status_t st = validate_shape(p.m, p.n, p.k); st != BLOCKFP8_SUCCESS) return st;

  // Dtype (the enum arrives through a C ABI: any int is possible).
  const int dtype = static_cast<int>(p.c_dtype);
  if (dtype != BLOCKFP8_DTYPE_BF16 && dtype != BLOCKFP8_DTYPE_FP16 && dtype != BLOCKFP8_DTYPE_FP32)
    return BLOCKFP8_ERROR_INVALID_DTYPE;

  const bool rows = p.m > 0;  // false: A, a_scale and C are not checked (see the top of this file)
  const View a{p.a, p.m, p.k, p.lda, 1, 1};
  const View a_scale{p.a_scale, p.m, p.k_blocks(), p.a_scale_stride_m, p.a_scale_stride_k, 4};
  const View b{p.b, p.n, p.k, p.ldb, 1, 1};
  const View b_scale{p.b_scale, p.n_blocks(), p.k_blocks(), p.b_scale_stride_n, p.b_scale_stride_k, 4};
  const View c{p.c, p.m, p.n, p.ldc, 1, dtype_size(p.c_dtype)};

  // Pointers.
  if (!p.b || !p.b_scale || (rows && (!p.a || !p.a_scale || !p.c))) return BLOCKFP8_ERROR_NULL_POINTER;

  // Strides.
  if (p.ldb < p.k || !scale_strides_ok(b_scale)) return BLOCKFP8_ERROR_INVALID_STRIDE;
  if (rows && (p.lda < p.k || p.ldc < p.n || !scale_strides_ok(a_scale))) return BLOCKFP8_ERROR_INVALID_STRIDE;

  // Byte extents: a tensor too large to address is a shape error.
  Range ra{}, ra_scale{}, rb{}, rb_scale{}, rc{};
  if (!byte_range(b, rb) || !byte_range(b_scale, rb_scale)) return BLOCKFP8_ERROR_INVALID_SHAPE;
  if (rows && (!byte_range(a, ra) || !byte_range(a_scale, ra_scale) || !byte_range(c, rc)))
    return BLOCKFP8_ERROR_INVALID_SHAPE;

  // Alignment. A and B may have any alignment: the SIMT kernel serves what TMA cannot.
  if (!aligned(p.b_scale, 4)) return BLOCKFP8_ERROR_MISALIGNED;
  if (!rows) return BLOCKFP8_SUCCESS;
  if (!aligned(p.c, c.elem) || !aligned(p.a_scale, 4)) return BLOCKFP8_ERROR_MISALIGNED;

  // Aliasing: C's whole byte range (row padding included) against each input's.
  if (overlap(rc, ra) || overlap(rc, rb) || overlap(rc, ra_scale) || overlap(rc, rb_scale))
    return BLOCKFP8_ERROR_ALIASING;
  return BLOCKFP8_SUCCESS;
}

// The quantiser. Its scales are an output, so the broadcast exemption of the GEMM's scale strides
// does not apply: a zero stride along a dimension of extent > 1 would make groups race for one word.
blockfp8_status_t validate_quantize(const QuantizeProblem& q) {
  // Shape (no N: one output row per input row).
  if (const blockfp8_status_t st = validate_shape(q.m, 1, q.k); st != BLOCKFP8_SUCCESS) return st;

  // Dtype and scale format (C enums: any int can arrive).
  const int dtype = static_cast<int>(q.x_dtype);
  if (dtype != BLOCKFP8_DTYPE_BF16 && dtype != BLOCKFP8_DTYPE_FP16 && dtype != BLOCKFP8_DTYPE_FP32)
    return BLOCKFP8_ERROR_INVALID_DTYPE;
  const int fmt = static_cast<int>(q.fmt);
  if (fmt != BLOCKFP8_SCALE_FP32 && fmt != BLOCKFP8_SCALE_UE8M0) return BLOCKFP8_ERROR_INVALID_VALUE;
  if (q.m == 0) return BLOCKFP8_SUCCESS;  // a no-op: no tensor describes an element

  const View x{q.x, q.m, q.k, q.ldx, 1, dtype_size(q.x_dtype)};
  const View x_q{q.x_q, q.m, q.k, q.ldq, 1, 1};
  const View scales{q.scales, q.m, q.k_blocks(), q.scale_stride_m, q.scale_stride_k, 4};

  // Pointers.
  if (!q.x || !q.x_q || !q.scales) return BLOCKFP8_ERROR_NULL_POINTER;

  // Strides.
  const bool broadcast = (q.m > 1 && q.scale_stride_m == 0) || (q.k_blocks() > 1 && q.scale_stride_k == 0);
  if (q.ldx < q.k || q.ldq < q.k || broadcast || !scale_strides_ok(scales)) return BLOCKFP8_ERROR_INVALID_STRIDE;

  // Byte extents.
  Range rx{}, rq{}, rs{};
  if (!byte_range(x, rx) || !byte_range(x_q, rq) || !byte_range(scales, rs)) return BLOCKFP8_ERROR_INVALID_SHAPE;

  // Alignment: X to its element size, scales to 4 bytes; X_q is bytes. (The fast path's 16-byte
  // vectors are the launcher's choice, not a requirement.)
  if (!aligned(q.x, x.elem) || !aligned(q.scales, 4)) return BLOCKFP8_ERROR_MISALIGNED;

  // Aliasing: each output against the input and against the other output (whole byte ranges).
  if (overlap(rq, rx) || overlap(rs, rx) || overlap(rq, rs)) return BLOCKFP8_ERROR_ALIASING;
  return BLOCKFP8_SUCCESS;
}

// blockfp8_gemm_bf16a: the GEMM's rules for B, b_scale and C (p.a and p.a_scale are not used), the
// quantiser's for X, and no overlap of C or the workspace with anything else. Whether the workspace
// is large enough depends on the device's dispatch: the entry point checks that.
blockfp8_status_t validate_fused(const Problem& p, const FusedA& x) {
  if (const blockfp8_status_t st = validate_shape(p.m, p.n, p.k); st != BLOCKFP8_SUCCESS) return st;
  const int dtype = static_cast<int>(p.c_dtype), x_dtype = static_cast<int>(x.x_dtype);
  for (int d : {dtype, x_dtype})
    if (d != BLOCKFP8_DTYPE_BF16 && d != BLOCKFP8_DTYPE_FP16 && d != BLOCKFP8_DTYPE_FP32) return BLOCKFP8_ERROR_INVALID_DTYPE;
  const int fmt = static_cast<int>(x.fmt);
  if (fmt != BLOCKFP8_SCALE_FP32 && fmt != BLOCKFP8_SCALE_UE8M0) return BLOCKFP8_ERROR_INVALID_VALUE;

  const bool rows = p.m > 0;
  const View xv{x.x, p.m, p.k, x.ldx, 1, dtype_size(x.x_dtype)};
  const View b{p.b, p.n, p.k, p.ldb, 1, 1};
  const View b_scale{p.b_scale, p.n_blocks(), p.k_blocks(), p.b_scale_stride_n, p.b_scale_stride_k, 4};
  const View c{p.c, p.m, p.n, p.ldc, 1, dtype_size(p.c_dtype)};

  if (!p.b || !p.b_scale || (rows && (!x.x || !p.c))) return BLOCKFP8_ERROR_NULL_POINTER;
  if (p.ldb < p.k || !scale_strides_ok(b_scale)) return BLOCKFP8_ERROR_INVALID_STRIDE;
  if (rows && (x.ldx < p.k || p.ldc < p.n)) return BLOCKFP8_ERROR_INVALID_STRIDE;

  Range rx{}, rb{}, rb_scale{}, rc{};
  if (!byte_range(b, rb) || !byte_range(b_scale, rb_scale)) return BLOCKFP8_ERROR_INVALID_SHAPE;
  if (rows && (!byte_range(xv, rx) || !byte_range(c, rc))) return BLOCKFP8_ERROR_INVALID_SHAPE;
  Range rw{reinterpret_cast<uintptr_t>(x.workspace), x.workspace ? uint64_t(x.workspace_bytes) : 0};
  if (rw.bytes > std::numeric_limits<uint64_t>::max() - rw.begin) return BLOCKFP8_ERROR_INVALID_SHAPE;

  if (!aligned(p.b_scale, 4)) return BLOCKFP8_ERROR_MISALIGNED;
  if (!rows) return BLOCKFP8_SUCCESS;
  if (!aligned(p.c, c.elem) || !aligned(x.x, xv.elem)) return BLOCKFP8_ERROR_MISALIGNED;
  // The two-launch path puts X_q (TMA-read by the GEMM) at the workspace's start.
  if (x.workspace && !aligned(x.workspace, 16)) return BLOCKFP8_ERROR_MISALIGNED;

  if (overlap(rc, rx) || overlap(rc, rb) || overlap(rc, rb_scale)) return BLOCKFP8_ERROR_ALIASING;
  if (rw.bytes && (overlap(rw, rx) || overlap(rw, rb) || overlap(rw, rb_scale) || overlap(rw, rc)))
    return BLOCKFP8_ERROR_ALIASING;
  return BLOCKFP8_SUCCESS;
}

}  // namespace blockfp8::detail
