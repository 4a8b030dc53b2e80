"""GPU tests of blockfp8.quantize_1x128: bit-exact against a torch re-implementation of vLLM's
per_token_group_quant_fp8 (group 128, eps 1e-10, fp8 max 448), output layouts, and end to end
through blockfp8.gemm. Skipped without a Hopper GPU."""
import pytest
import torch

import blockfp8
from conftest import FP8, requires_cuda, requires_hopper

pytestmark = requires_cuda


def vllm_reference(x, ue8m0):
    """vLLM's formula in torch, on x's device: (x_q [M, K] e4m3, scales [M, K/128] fp32), x [M, K].

    amax over the group in fp32 (eps-clamped), s = amax / 448 (IEEE division), UE8M0: s floored at
    1e-10 and rounded up to a power of two exactly (vLLM's CUDA register kernel: bump the exponent
    when the mantissa is non-zero), q = clamp(x / s, -448, 448) -> e4m3 (round to nearest even)."""
    m, k = x.shape
    g = x.float().view(m, k // 128, 128)
    amax = g.abs().amax(dim=-1).clamp(min=1e-10)
    # A tensor divisor: torch turns "tensor / python float" into a multiply by the reciprocal on
    # CUDA, which is an ulp off IEEE division for some amax (seen on the H200, 2026-11-29).
    s = amax / torch.full_like(amax, 448.0)
    if ue8m0:
        bits = s.clamp(min=1e-10).view(torch.int32)
        bits = torch.where((bits & 0x7FFFFF) != 0, (bits & 0x7F800000) + 0x800000, bits)
        s = bits.view(torch.float32)
    q = (g / s.unsqueeze(-1)).clamp(-448.0, 448.0).to(FP8)
    return q.view(m, k), s


def special_inputs(m, k, dtype, seed):
    """Random values over many magnitudes plus a zero row, all-negative groups, values near the dtype's
    largest finite, and denormals of the dtype."""
    g = torch.Generator(device="cpu").manual_seed(seed)
    lo, hi = (-14, 10) if dtype == torch.float16 else (-20, 20)  # group magnitudes that stay finite
    mag = torch.exp2(torch.randint(lo, hi, (m, k // 128, 1), generator=g).float())
    x = (torch.randn(m, k // 128, 128, generator=g) * mag).view(m, k)
    x = x.to(dtype)
    info = torch.finfo(dtype)
    if m > 1:
        x[1] = 0
    if m > 2:
        x[2, :128] = -x[2, :128].abs()
    if m > 3:
        x[3, ::3] = info.max * (1 - 0.01 * torch.rand(len(x[3, ::3]), generator=g)).to(dtype)
    if m > 4:
        x[4] = (torch.randint(-7, 8, (k,), generator=g).float() * info.smallest_normal / 8).to(dtype)  # denormals
    return x


DTYPES = [torch.bfloat16, torch.float16, torch.float32]
SHAPES = [(1, 7168), (5, 128), (33, 2048), (130, 896), (256, 1536)]


@requires_hopper
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("fmt", ["fp32", "ue8m0"])
@pytest.mark.parametrize("col", [False, True], ids=["row", "col"])
@pytest.mark.parametrize("m,k", SHAPES, ids=["x".join(map(str, s)) for s in SHAPES])
def test_bit_exact_vs_vllm_formula(m, k, dtype, fmt, col):
    x = special_inputs(m, k, dtype, seed=m * 31 + k).cuda()
    q, s = blockfp8.quantize_1x128(x, scale_format=fmt, column_major_scales=col)
    rq, rs = vllm_reference(x, fmt == "ue8m0")
    torch.cuda.synchronize()
    assert q.shape == (m, k) and q.dtype == FP8 and s.shape == (m, k // 128)
    if col and m > 1:
        assert s.stride() == (1, (m + 3) // 4 * 4)  # TMA-aligned
    assert torch.equal(s.view(torch.int32), rs.view(torch.int32)), "scales differ"
    diff = (q.view(torch.uint8) != rq.view(torch.uint8)).nonzero()
    assert diff.numel() == 0, f"{len(diff)} bytes differ, first at {diff[0].tolist()}"


@requires_hopper
def test_strided_and_batched_inputs():
    x = torch.randn(3, 4, 2 * 512, device="cuda", dtype=torch.bfloat16)[..., :512]  # padded rows
    q, s = blockfp8.quantize_1x128(x)
    rq, rs = vllm_reference(x.reshape(12, 512), False)
    assert q.shape == (3, 4, 512) and s.shape == (3, 4, 4)
    assert torch.equal(q.view(torch.uint8).view(12, 512), rq.view(torch.uint8))
    assert torch.equal(s.view(12, 4), rs)
    x1 = torch.randn(128 * 3, device="cuda", dtype=torch.float16)  # 1-D
    q1, s1 = blockfp8.quantize_1x128(x1, "ue8m0")
    rq1, rs1 = vllm_reference(x1.view(1, -1), True)
    assert torch.equal(q1.view(torch.uint8), rq1.view(torch.uint8).view(-1)) and torch.equal(s1, rs1.view(-1))
    x0 = torch.empty(0, 256, device="cuda", dtype=torch.bfloat16)
    q0, s0 = blockfp8.quantize_1x128(x0)
    assert q0.shape == (0, 256) and s0.shape == (0, 2)


@requires_hopper
def test_opcheck_cuda():
    x = torch.randn(9, 384, device="cuda", dtype=torch.bfloat16)
    torch.library.opcheck(torch.ops.blockfp8.quantize_1x128.default, (x, "fp32", False))
    torch.library.opcheck(torch.ops.blockfp8.quantize_1x128.default, (x, "ue8m0", True))


@requires_hopper
@pytest.mark.parametrize("col", [False, True], ids=["row", "col"])
@pytest.mark.parametrize("fmt", ["fp32", "ue8m0"])
def test_end_to_end_gemm(fmt, col):
    # Against float64 X·Wᵀ of the unquantised X the error is e4m3's (about 2.5% of max|ref| on Gaussian
    # data); against float64 of the dequantised X_q it is the GEMM's own.
    torch.manual_seed(0)
    m, n, k = 64, 576, 2048
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    w = (torch.randn(n, k, device="cuda") * 100).clamp(-448, 448).to(FP8)
    ws = torch.rand((n + 127) // 128, k // 128, device="cuda") * 1e-3 + 1e-4
    q, s = blockfp8.quantize_1x128(x, fmt, col)
    c = blockfp8.gemm(q, s, w, ws, out_dtype=torch.float32)
    wd = w.double() * ws.double().repeat_interleave(128, 0)[:n].repeat_interleave(128, 1)
    ref_x = x.double() @ wd.t()
    ref_q = (q.double() * s.double().repeat_interleave(128, 1)) @ wd.t()
    assert ((c.double() - ref_q).abs().max() / ref_q.abs().max()).item() <= 5e-3
    assert ((c.double() - ref_x).abs().max() / ref_x.abs().max()).item() <= 4e-2


@requires_hopper
def test_cuda_graph_and_compile():
    x = torch.randn(16, 1024, device="cuda", dtype=torch.bfloat16)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):  # warm-up outside capture
        blockfp8.quantize_1x128(x, "ue8m0", True)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        q_g, s_g = blockfp8.quantize_1x128(x, "ue8m0", True)
    x.copy_(torch.randn(16, 1024, device="cuda", dtype=torch.bfloat16) * 3)
    g.replay()
    torch.cuda.synchronize()
    q_ref, s_ref = blockfp8.quantize_1x128(x, "ue8m0", True)
    assert torch.equal(q_g.view(torch.uint8), q_ref.view(torch.uint8)) and torch.equal(s_g, s_ref)
    torch._dynamo.reset()
    cf = torch.compile(lambda t: blockfp8.quantize_1x128(t, "ue8m0", True), fullgraph=True)
    q_c, s_c = cf(x)
    assert torch.equal(q_c.view(torch.uint8), q_ref.view(torch.uint8)) and torch.equal(s_c, s_ref)
