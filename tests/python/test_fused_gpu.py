"""GPU tests of the GEMM from bf16 activations (blockfp8.gemm_bf16a / blockfp8.linear): bitwise equal
to blockfp8.quantize_1x128 followed by blockfp8.gemm on both the one-launch (fused: M x k-blocks per
CTA <= 40) and the two-launch (workspace) paths, every output written, CUDA graphs and torch.compile."""
import pytest
import torch

import blockfp8
from conftest import FP8, reference, rel_err, requires_cuda, requires_hopper

pytestmark = requires_cuda


# (M, N, K): DeepSeek shapes and odd ones; the short K slices (M = 1 on 2112 x 7168, M = 9 on 4097 x 512)
# take the fused path, the rest two launches.
SHAPES = [(1, 2112, 7168), (4, 2112, 7168), (8, 576, 7168), (9, 4097, 512), (16, 7168, 2048), (17, 65, 1536),
          (32, 2112, 7168), (31, 1, 128), (33, 2112, 7168), (64, 4096, 512), (200, 300, 1024)]


def _bits(t):
    """The raw bits (torch.equal treats -0 and +0 as equal)."""
    return t.view({2: torch.int16, 4: torch.int32}[t.element_size()])


def _inputs(m, n, k, dtype, seed):
    g = torch.Generator(device="cpu").manual_seed(seed)
    # A wide spread of magnitudes per row, a row of zeros where there are several rows.
    x = torch.randn(m, k, generator=g) * torch.exp2(torch.randint(-12, 12, (m, 1), generator=g).float())
    x = x * torch.exp2(torch.randint(-6, 6, (m, k // 128), generator=g).float()).repeat_interleave(128, dim=1)
    if m > 2:
        x[m // 2] = 0
    b = (torch.randn(n, k, generator=g) * 2.0).to(FP8)
    b_scale = torch.rand((n + 127) // 128, k // 128, generator=g) * 0.02 + 0.001
    return x.to(dtype).cuda(), b.cuda(), b_scale.cuda()


@requires_hopper
@pytest.mark.parametrize("fmt", ["fp32", "ue8m0"])
@pytest.mark.parametrize("out_dtype", [torch.bfloat16, torch.float32], ids=["bf16", "fp32"])
@pytest.mark.parametrize("m,n,k", SHAPES, ids=["x".join(map(str, s)) for s in SHAPES])
def test_bitwise_equal_to_quantize_then_gemm(m, n, k, out_dtype, fmt):
    x, b, b_scale = _inputs(m, n, k, torch.bfloat16, seed=m * 131 + n + k)
    x_q, s = blockfp8.quantize_1x128(x, fmt)
    two = blockfp8.gemm(x_q, s, b, b_scale, out_dtype=out_dtype)
    one = blockfp8.gemm_bf16a(x, b, b_scale, out_dtype=out_dtype, scale_format=fmt)
    torch.cuda.synchronize()
    assert not one.isnan().any()
    assert torch.equal(_bits(one), _bits(two)), f"max diff {(one.double() - two.double()).abs().max().item()}"
    again = blockfp8.gemm_bf16a(x, b, b_scale, out_dtype=out_dtype, scale_format=fmt)
    assert torch.equal(_bits(one), _bits(again))  # deterministic
    # And close to a float64 reference of the quantised operands.
    assert rel_err(one, reference(x_q, s, b, b_scale)) < 1e-2


@requires_hopper
@pytest.mark.parametrize("case", ["padded_rows", "offset_2_bytes", "fp16", "fp32"])
def test_layouts_and_dtypes_served(case):
    m, n, k = 5, 2112, 7168
    dtype = {"fp16": torch.float16, "fp32": torch.float32}.get(case, torch.bfloat16)
    x, b, b_scale = _inputs(m, n, k, dtype, seed=7)
    if case == "padded_rows":
        x = torch.cat([x, x[:, :128]], dim=1)[:, :k]  # ldx = K + 128
    elif case == "offset_2_bytes":  # rows not 16-byte aligned: the workspace path
        x = torch.cat([x[:, :1], x], dim=1)[:, 1:]
    x_q, s = blockfp8.quantize_1x128(x)
    two = blockfp8.gemm(x_q, s, b, b_scale)
    one = blockfp8.gemm_bf16a(x, b, b_scale)
    assert torch.equal(_bits(one), _bits(two))


@requires_hopper
def test_linear_shapes_and_bias():
    x, b, b_scale = _inputs(6, 576, 7168, torch.bfloat16, seed=3)
    x3 = x.view(2, 3, 7168)
    bias = torch.randn(576, dtype=torch.bfloat16, device="cuda")
    y = blockfp8.linear(x3, b, b_scale, bias=bias)
    assert y.shape == (2, 3, 576) and y.dtype == torch.bfloat16
    assert torch.equal(y, (blockfp8.gemm_bf16a(x, b, b_scale) + bias).view(2, 3, 576))


@requires_hopper
def test_cuda_graph_and_compile():
    x, b, b_scale = _inputs(4, 2112, 7168, torch.bfloat16, seed=5)
    eager = blockfp8.linear(x, b, b_scale)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        blockfp8.linear(x, b, b_scale)  # warm-up on the capture stream
        with torch.cuda.graph(g, stream=s):
            y = blockfp8.linear(x, b, b_scale)
    for _ in range(2):
        y.fill_(float("nan"))
        g.replay()
        torch.cuda.synchronize()
        assert torch.equal(y, eager)
    compiled = torch.compile(lambda t: blockfp8.linear(t, b, b_scale), fullgraph=True)
    assert torch.equal(compiled(x), eager)


@requires_hopper
def test_errors_name_the_argument():
    x, b, b_scale = _inputs(2, 256, 256, torch.bfloat16, seed=1)
    with pytest.raises(TypeError, match="x must have dtype"):
        blockfp8.gemm_bf16a(x.to(torch.int32), b, b_scale)
    with pytest.raises(ValueError, match="same K"):
        blockfp8.gemm_bf16a(x[:, :128], b, b_scale)
    with pytest.raises(ValueError, match="scale_format"):
        blockfp8.gemm_bf16a(x, b, b_scale, scale_format="e8m0")
    with pytest.raises(ValueError, match="one CUDA device|CUDA tensor"):
        blockfp8.gemm_bf16a(x.cpu(), b, b_scale)
