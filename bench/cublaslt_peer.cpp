#include "cublaslt_peer.h"

#include <cublasLt.h>

#include <algorithm>

#include "inputs.h"

namespace bench {
namespace {

constexpr size_t kWorkspaceBytes = size_t(64) << 20;

std::string status_text(cublasStatus_t s) {
  const char* t = cublasLtGetStatusString(s);
  return t ? t : ("cublasStatus " + std::to_string(int(s)));
}

struct LtError : CudaError {
  using CudaError::CudaError;
};

void lt_check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw LtError(std::string(what) + ": " + status_text(s));
}

template <class T>
void set_desc(cublasLtMatmulDesc_t d, cublasLtMatmulDescAttributes_t attr, const T& v, const char* what) {
  lt_check(cublasLtMatmulDescSetAttribute(d, attr, &v, sizeof v), what);
}

int algo_attr(const cublasLtMatmulAlgo_t& a, cublasLtMatmulAlgoConfigAttributes_t attr) {
  int32_t v = -1;
  size_t written = 0;
  if (cublasLtMatmulAlgoConfigGetAttribute(&a, attr, &v, sizeof v, &written) != CUBLAS_STATUS_SUCCESS) return -1;
  return v;
}

}  // namespace

struct CublasLtPeer::State {
  int64_t m = 0, mp = 0, n = 0, k = 0;
  std::vector<cublasLtMatmulDesc_t> desc;  // per copy: the scale pointers live in the descriptor
  cublasLtMatrixLayout_t a_layout = nullptr, b_layout = nullptr, d_layout = nullptr;
  std::vector<cublasLtMatmulAlgo_t> algos;
  int selected = 0;
  DeviceBuffer w_scales, x_scales, x_pad, d_pad;
  std::vector<const void*> w, x;
  std::vector<const float*> w_scale, x_scale;
  std::vector<void*> d;

  ~State() {
    for (auto h : desc)
      if (h) cublasLtMatmulDescDestroy(h);
    if (a_layout) cublasLtMatrixLayoutDestroy(a_layout);
    if (b_layout) cublasLtMatrixLayoutDestroy(b_layout);
    if (d_layout) cublasLtMatrixLayoutDestroy(d_layout);
  }
};

CublasLtPeer::CublasLtPeer() : workspace_(kWorkspaceBytes) {
  cublasLtHandle_t h = nullptr;
  lt_check(cublasLtCreate(&h), "cublasLtCreate");
  handle_ = h;
}

CublasLtPeer::~CublasLtPeer() {
  st_.reset();
  if (handle_) cublasLtDestroy(static_cast<cublasLtHandle_t>(handle_));
}

int CublasLtPeer::version() { return int(cublasLtGetVersion()); }

bool CublasLtPeer::prepare(const Operands& ops, int max_algos, cudaStream_t stream, std::string* note) {
  st_.reset();
  if (cublasLtGetVersion() < 120900) {
    *note = "cuBLASLt " + std::to_string(cublasLtGetVersion()) + " < 12.9 has no 128-block scaling";
    return false;
  }
  if (ops.n % 4) {
    *note = "cuBLASLt block scaling needs N % 4 == 0";
    return false;
  }
  try {
    auto st = std::make_unique<State>();
    const int copies = ops.copies();
    const int64_t kb = ops.k_blocks(), nb = ops.n_blocks();
    const int64_t kb4 = int64_t(round_up(size_t(kb), 4));
    st->m = ops.m;
    st->mp = int64_t(round_up(size_t(ops.m), 4));
    st->n = ops.n;
    st->k = ops.k;

    // Scale tensors in cuBLASLt's layouts; every copy 256-byte aligned (cuBLASLt wants 16).
    const size_t w_slot = round_up(size_t(nb * kb4) * 4, 256);
    const size_t x_slot = round_up(size_t(st->mp * kb) * 4, 256);
    st->w_scales = DeviceBuffer(w_slot * copies);
    st->x_scales = DeviceBuffer(x_slot * copies);
    BENCH_CUDA(cudaMemsetAsync(st->w_scales.get(), 0, st->w_scales.size(), stream));
    BENCH_CUDA(cudaMemsetAsync(st->x_scales.get(), 0, st->x_scales.size(), stream));
    const bool pad = st->mp != ops.m;
    const size_t xp_slot = round_up(size_t(st->mp * ops.k), 256), dp_slot = round_up(size_t(st->mp * ops.n) * 2, 256);
    if (pad) {
      st->x_pad = DeviceBuffer(xp_slot * copies);
      st->d_pad = DeviceBuffer(dp_slot * copies);
      BENCH_CUDA(cudaMemsetAsync(st->x_pad.get(), 0, st->x_pad.size(), stream));
    }
    for (int c = 0; c < copies; ++c) {
      float* ws = reinterpret_cast<float*>(st->w_scales.get<uint8_t>() + w_slot * c);
      float* xs = reinterpret_cast<float*>(st->x_scales.get<uint8_t>() + x_slot * c);
      // ours (nb, kb) at nb*kb_count + kb  ->  theirs at kb + nb*kb4
      copy2d_f32(ws, kb4, 1, ops.b_scale[c], kb, 1, nb, kb, stream);
      // ours (m, kb) at m*sa_m + kb*sa_k  ->  theirs at m + kb*mp
      copy2d_f32(xs, 1, st->mp, ops.a_scale[c], ops.sa_m, ops.sa_k, ops.m, kb, stream);
      st->w.push_back(ops.b[c]);
      st->w_scale.push_back(ws);
      st->x_scale.push_back(xs);
      if (pad) {
        uint8_t* xp = st->x_pad.get<uint8_t>() + xp_slot * c;
        BENCH_CUDA(cudaMemcpyAsync(xp, ops.a[c], size_t(ops.m * ops.k), cudaMemcpyDeviceToDevice, stream));
        st->x.push_back(xp);
        st->d.push_back(st->d_pad.get<uint8_t>() + dp_slot * c);
      } else {
        st->x.push_back(ops.a[c]);
        st->d.push_back(ops.c[c]);
      }
    }

    lt_check(cublasLtMatrixLayoutCreate(&st->a_layout, CUDA_R_8F_E4M3, ops.k, ops.n, ops.k), "layout A");
    lt_check(cublasLtMatrixLayoutCreate(&st->b_layout, CUDA_R_8F_E4M3, ops.k, st->mp, ops.k), "layout B");
    lt_check(cublasLtMatrixLayoutCreate(&st->d_layout, CUDA_R_16BF, ops.n, st->mp, ops.n), "layout D");
    const cublasOperation_t op_t = CUBLAS_OP_T, op_n = CUBLAS_OP_N;
    const int32_t w_mode = CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F;
    const int32_t x_mode = CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F;
    for (int c = 0; c < copies; ++c) {
      cublasLtMatmulDesc_t d = nullptr;
      lt_check(cublasLtMatmulDescCreate(&d, CUBLAS_COMPUTE_32F, CUDA_R_32F), "desc create");
      st->desc.push_back(d);
      set_desc(d, CUBLASLT_MATMUL_DESC_TRANSA, op_t, "TRANSA");
      set_desc(d, CUBLASLT_MATMUL_DESC_TRANSB, op_n, "TRANSB");
      set_desc(d, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, w_mode, "A_SCALE_MODE");
      set_desc(d, CUBLASLT_MATMUL_DESC_B_SCALE_MODE, x_mode, "B_SCALE_MODE");
      const void* wsp = st->w_scale[c];
      const void* xsp = st->x_scale[c];
      set_desc(d, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, wsp, "A_SCALE_POINTER");
      set_desc(d, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, xsp, "B_SCALE_POINTER");
    }

    cublasLtMatmulPreference_t pref = nullptr;
    lt_check(cublasLtMatmulPreferenceCreate(&pref), "preference");
    const size_t ws_bytes = workspace_.size();
    cublasStatus_t s = cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes,
                                                            sizeof ws_bytes);
    std::vector<cublasLtMatmulHeuristicResult_t> heur(std::max(1, max_algos));
    int found = 0;
    if (s == CUBLAS_STATUS_SUCCESS)
      s = cublasLtMatmulAlgoGetHeuristic(static_cast<cublasLtHandle_t>(handle_), st->desc[0], st->a_layout,
                                         st->b_layout, st->d_layout, st->d_layout, pref, int(heur.size()),
                                         heur.data(), &found);
    cublasLtMatmulPreferenceDestroy(pref);
    if (s != CUBLAS_STATUS_SUCCESS) {
      *note = "heuristic: " + status_text(s);
      return false;
    }
    BENCH_CUDA(cudaStreamSynchronize(stream));  // scale repacks done before trial runs

    // Keep the algorithms that actually run on this problem (a heuristic hit can still be refused).
    std::string last_error = "no algorithm from the heuristic";
    for (int i = 0; i < found; ++i) {
      if (heur[i].state != CUBLAS_STATUS_SUCCESS) continue;
      const float alpha = 1.f, beta = 0.f;
      const cublasStatus_t r = cublasLtMatmul(static_cast<cublasLtHandle_t>(handle_), st->desc[0], &alpha,
                                              st->w[0], st->a_layout, st->x[0], st->b_layout, &beta, st->d[0],
                                              st->d_layout, st->d[0], st->d_layout, &heur[i].algo,
                                              workspace_.get(), workspace_.size(), stream);
      if (r == CUBLAS_STATUS_SUCCESS && cudaStreamSynchronize(stream) == cudaSuccess)
        st->algos.push_back(heur[i].algo);
      else
        last_error = "cublasLtMatmul: " + status_text(r);
      cudaGetLastError();
    }
    if (st->algos.empty()) {
      *note = last_error;
      return false;
    }
    st_ = std::move(st);
    return true;
  } catch (const LtError& e) {
    *note = e.what();
    return false;
  }
}

int CublasLtPeer::algo_count() const { return st_ ? int(st_->algos.size()) : 0; }

void CublasLtPeer::select_algo(int i) {
  if (st_ && i >= 0 && i < algo_count()) st_->selected = i;
}

int64_t CublasLtPeer::padded_m() const { return st_ ? st_->mp : 0; }

std::string CublasLtPeer::config() const {
  if (!st_) return "unprepared";
  const cublasLtMatmulAlgo_t& a = st_->algos[st_->selected];
  std::string s = "heur" + std::to_string(st_->selected) + "_algo" + std::to_string(algo_attr(a, CUBLASLT_ALGO_CONFIG_ID)) +
                  "_tile" + std::to_string(algo_attr(a, CUBLASLT_ALGO_CONFIG_TILE_ID)) + "_stages" +
                  std::to_string(algo_attr(a, CUBLASLT_ALGO_CONFIG_STAGES_ID)) + "_splitk" +
                  std::to_string(algo_attr(a, CUBLASLT_ALGO_CONFIG_SPLITK_NUM));
  if (st_->mp != st_->m) s += "_mpad" + std::to_string(st_->m) + "to" + std::to_string(st_->mp);
  return s;
}

void CublasLtPeer::enqueue(int copy, cudaStream_t stream) {
  const float alpha = 1.f, beta = 0.f;
  lt_check(cublasLtMatmul(static_cast<cublasLtHandle_t>(handle_), st_->desc[copy], &alpha, st_->w[copy],
                          st_->a_layout, st_->x[copy], st_->b_layout, &beta, st_->d[copy], st_->d_layout,
                          st_->d[copy], st_->d_layout, &st_->algos[st_->selected], workspace_.get(),
                          workspace_.size(), stream),
           "cublasLtMatmul");
}

const void* CublasLtPeer::output(int copy) const { return st_ ? st_->d[copy] : nullptr; }

}  // namespace bench
