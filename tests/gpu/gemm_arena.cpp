#include "gemm_arena.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "fp8.h"
#include "gpu_reference.h"
#include "random.h"

namespace bf8test {
namespace {

constexpr size_t kAlign = 256;
size_t align_up(size_t x) { return (x + kAlign - 1) / kAlign * kAlign; }

struct Offsets {
  size_t a, b, as, bs, c, c_bytes, ref, total;
};

Offsets layout(const GemmSpec& s) {
  const int64_t kb = s.k / 128, nb = (s.n + 127) / 128;
  const size_t es = size_t(dtype_bytes(s.dtype));
  Offsets o{};
  size_t at = 0;
  o.a = at;
  at = align_up(at + size_t(s.a_off) + (s.m > 0 ? size_t((s.m - 1) * s.lda + s.k) : 0));
  o.b = at;
  at = align_up(at + size_t(s.b_off) + size_t((s.n - 1) * s.ldb + s.k));
  o.as = at;
  at = align_up(at + 4 * size_t(s.m > 0 ? strided_extent(s.m, kb, s.sa_m, s.sa_k) : 1));
  o.bs = at;
  at = align_up(at + 4 * size_t(strided_extent(nb, kb, s.sb_n, s.sb_k)));
  o.c = at;
  o.c_bytes = GemmArena::kGuardBytes + size_t(s.c_off) * es + size_t(s.m * s.ldc) * es + GemmArena::kGuardBytes;
  at = align_up(at + o.c_bytes);
  o.ref = at;
  at = align_up(at + size_t(s.m * s.n) * 4);
  o.total = at;
  return o;
}

}  // namespace

std::string GemmSpec::str() const {
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "M=%" PRId64 " N=%" PRId64 " K=%" PRId64 " %s lda=%" PRId64 " ldb=%" PRId64 " ldc=%" PRId64
                " a_scale=(%" PRId64 ",%" PRId64 ") b_scale=(%" PRId64 ",%" PRId64 ") A+%" PRId64 "B B+%" PRId64
                "B C+%" PRId64 "el",
                m, n, k, dtype_name(dtype), lda, ldb, ldc, sa_m, sa_k, sb_n, sb_k, a_off, b_off, c_off);
  return buf;
}

GemmSpec resolved(GemmSpec s) {
  const int64_t kb = s.k / 128;
  if (s.lda == 0) s.lda = s.k;
  if (s.ldb == 0) s.ldb = s.k;
  if (s.ldc == 0) s.ldc = s.n;
  if (s.sa_m < 0) s.sa_m = kb;
  if (s.sa_k < 0) s.sa_k = 1;
  if (s.sb_n < 0) s.sb_n = kb;
  if (s.sb_k < 0) s.sb_k = 1;
  return s;
}

int64_t strided_extent(int64_t rows, int64_t cols, int64_t s_row, int64_t s_col) {
  return (rows > 1 ? (rows - 1) * s_row : 0) + (cols > 1 ? (cols - 1) * s_col : 0) + 1;
}

GemmArena::~GemmArena() {
  if (base_) cudaFree(base_);
}

size_t GemmArena::bytes_needed(const GemmSpec& spec) { return layout(resolved(spec)).total; }

cudaError_t GemmArena::reserve(size_t bytes) {
  if (bytes <= capacity_) return cudaSuccess;
  if (base_) cudaFree(base_);
  base_ = nullptr;
  capacity_ = 0;
  const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&base_), bytes);
  if (e == cudaSuccess) capacity_ = bytes;
  return e;
}

cudaError_t GemmArena::set(const GemmSpec& spec_in, uint64_t seed, cudaStream_t stream) {
  spec_ = resolved(spec_in);
  const GemmSpec& s = spec_;
  const Offsets o = layout(s);
  cudaError_t e = reserve(o.total);
  if (e != cudaSuccess) return e;
  a_ = o.a, b_ = o.b, as_ = o.as, bs_ = o.bs, c_ = o.c, c_bytes_ = o.c_bytes, ref_ = o.ref, used_ = o.total;

  // A and B: NaN in the offset bytes and row padding, random elements.
  if ((e = cudaMemsetAsync(base_, kE4m3NaN, bs_, stream)) != cudaSuccess) return e;
  if (s.m > 0 &&
      (e = fill_e4m3_device(base_ + a_ + s.a_off, s.m, s.k, s.lda, derive_seed(seed, 1), stream)) != cudaSuccess)
    return e;
  if ((e = fill_e4m3_device(base_ + b_ + s.b_off, s.n, s.k, s.ldb, derive_seed(seed, 2), stream)) != cudaSuccess)
    return e;

  // Scales, NaN in the gaps: positive, small enough that fp16 cannot overflow (|C| <= K * 448^2 * sa * sb).
  const int64_t kb = s.k / 128, nb = (s.n + 127) / 128;
  const double lo = s.dtype == BLOCKFP8_DTYPE_FP16 ? -12 : -8, hi = lo + 4;
  h_scales_.assign((c_ - as_) / 4, float_from_bits(0x7fc00000u));
  float* ha = h_scales_.data();
  float* hb = h_scales_.data() + (bs_ - as_) / 4;
  const uint64_t sa_seed = derive_seed(seed, 3), sb_seed = derive_seed(seed, 4);
  // With a stride of 0 (broadcast) several elements share an address; the last write wins, which is
  // what both the library and the reference then read.
  for (int64_t i = 0; i < s.m; ++i)
    for (int64_t j = 0; j < kb; ++j)
      ha[(s.m > 1 ? i * s.sa_m : 0) + (kb > 1 ? j * s.sa_k : 0)] = random_scale(sa_seed, uint64_t(i * kb + j), lo, hi);
  for (int64_t i = 0; i < nb; ++i)
    for (int64_t j = 0; j < kb; ++j)
      hb[(nb > 1 ? i * s.sb_n : 0) + (kb > 1 ? j * s.sb_k : 0)] = random_scale(sb_seed, uint64_t(i * kb + j), lo, hi);
  if ((e = cudaMemcpyAsync(base_ + as_, h_scales_.data(), c_ - as_, cudaMemcpyHostToDevice, stream)) != cudaSuccess)
    return e;
  if ((e = poison(stream)) != cudaSuccess) return e;
  // The scale copy reads h_scales_, which the next set() overwrites: wait for it here.
  return cudaStreamSynchronize(stream);
}

GemmOperands GemmArena::operands() const {
  const GemmSpec& s = spec_;
  GemmOperands p;
  p.m = s.m, p.n = s.n, p.k = s.k;
  p.a = base_ + a_ + s.a_off, p.lda = s.lda;
  p.a_scale = reinterpret_cast<const float*>(base_ + as_), p.a_scale_stride_m = s.sa_m, p.a_scale_stride_k = s.sa_k;
  p.b = base_ + b_ + s.b_off, p.ldb = s.ldb;
  p.b_scale = reinterpret_cast<const float*>(base_ + bs_), p.b_scale_stride_n = s.sb_n, p.b_scale_stride_k = s.sb_k;
  return p;
}

cudaError_t GemmArena::poison(cudaStream_t stream) const {
  return cudaMemsetAsync(base_ + c_, poison_byte_, c_bytes_, stream);
}

blockfp8_status_t GemmArena::call(const blockfp8_config_t* cfg, cudaStream_t stream) const {
  const GemmOperands p = operands();
  return blockfp8_gemm_ex(p.m, p.n, p.k, p.a, p.lda, p.a_scale, p.a_scale_stride_m, p.a_scale_stride_k, p.b, p.ldb,
                          p.b_scale, p.b_scale_stride_n, p.b_scale_stride_k, c(), spec_.ldc, spec_.dtype, cfg, stream);
}

blockfp8_status_t GemmArena::call_plain(cudaStream_t stream) const {
  const GemmOperands p = operands();
  return blockfp8_gemm(p.m, p.n, p.k, p.a, p.lda, p.a_scale, p.a_scale_stride_m, p.a_scale_stride_k, p.b, p.ldb,
                       p.b_scale, p.b_scale_stride_n, p.b_scale_stride_k, c(), spec_.ldc, spec_.dtype, stream);
}

cudaError_t GemmArena::reference(cudaStream_t stream) const {
  return gpu_reference_gemm(operands(), reinterpret_cast<float*>(base_ + ref_), stream);
}

cudaError_t GemmArena::fetch_reference(std::vector<float>& ref) const {
  ref.resize(size_t(spec_.m * spec_.n));
  return cudaMemcpy(ref.data(), base_ + ref_, ref.size() * 4, cudaMemcpyDeviceToHost);
}

cudaError_t GemmArena::fetch(std::vector<uint8_t>& region) const {
  region.resize(c_bytes_);
  return cudaMemcpy(region.data(), base_ + c_, c_bytes_, cudaMemcpyDeviceToHost);
}

std::string GemmArena::check_guards(const std::vector<uint8_t>& buf) const {
  if (buf.size() != c_bytes_) return "C region has the wrong size";
  const GemmSpec& s = spec_;
  const size_t es = size_t(dtype_bytes(s.dtype));
  const size_t c0 = kGuardBytes + size_t(s.c_off) * es;
  int64_t bad = 0, first = 0;
  auto guard = [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i)
      if (buf[i] != poison_byte_ && bad++ == 0) first = int64_t(i) - int64_t(c0);
  };
  guard(0, c0);
  for (int64_t m = 0; m < s.m; ++m) guard(c0 + size_t(m * s.ldc + s.n) * es, c0 + size_t((m + 1) * s.ldc) * es);
  guard(c0 + size_t(s.m * s.ldc) * es, c_bytes_);
  if (bad == 0) return "";
  char msg[160];
  std::snprintf(msg, sizeof msg, "%" PRId64 " bytes outside C changed (guard / row padding), first at byte %" PRId64
                " from C", bad, first);
  return msg;
}

std::string GemmArena::check(const std::vector<uint8_t>& buf, const std::vector<float>& ref, Comparison* out) const {
  std::string err = check_guards(buf);
  if (!err.empty()) return err;
  const GemmSpec& s = spec_;
  const size_t c0 = kGuardBytes + size_t(s.c_off) * size_t(dtype_bytes(s.dtype));
  const Comparison r = compare_output(buf.data() + c0, s.ldc, s.dtype, ref.data(), s.m, s.n);
  if (out) *out = r;
  if (r.unwritten > 0) return "elements left unwritten (or NaN): " + r.str();
  if (r.non_finite > 0) return "infinite elements: " + r.str();
  if (!(r.rel_err() <= output_tolerance(s.dtype))) return "error above tolerance: " + r.str();
  return "";
}

bool GemmArena::untouched(const std::vector<uint8_t>& buf) const {
  return std::all_of(buf.begin(), buf.end(), [this](uint8_t x) { return x == poison_byte_; });
}

}  // namespace bf8test
