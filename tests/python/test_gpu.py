"""GPU tests: numerics against a float64 reference, output coverage, scale layouts, out=, streams,
device guard, CUDA graphs, torch.compile, error statuses from C, host overhead.

Skipped without CUDA; the numerical ones also need a compute-capability 9.0 device (blockfp8 is
Hopper-only: elsewhere C returns BLOCKFP8_ERROR_UNSUPPORTED_DEVICE, which one test checks).
Run with -s to see the host-overhead figures.
"""
import math
import os
import time

import pytest
import torch

import blockfp8
from blockfp8 import _lib
from conftest import FP8, is_hopper, random_inputs, reference, rel_err, requires_cuda, requires_hopper

pytestmark = requires_cuda

TOL = 1e-2


# (M, N, K): decode sizes of DeepSeek-V3 layers, odd N, N < 128, N == 1, M == 1, M > 128, small K.
SHAPES = [
    (1, 2112, 7168),
    (1, 1, 128),
    (3, 200, 256),
    (7, 24576, 1536),
    (16, 7168, 2048),
    (33, 576, 7168),
    (64, 4096, 512),
    (129, 1000, 384),
    (256, 129, 1024),
]
OUT_DTYPES = [torch.bfloat16, torch.float16, torch.float32]


def _poisoned(m, n, dtype, device="cuda"):
    return torch.full((m, n), float("nan"), dtype=dtype, device=device)


@requires_hopper
@pytest.mark.parametrize("layout", ["row", "col"])
@pytest.mark.parametrize("out_dtype", OUT_DTYPES, ids=lambda d: str(d).split(".")[-1])
@pytest.mark.parametrize("m,n,k", SHAPES, ids=["x".join(map(str, s)) for s in SHAPES])
def test_numerics_out(m, n, k, out_dtype, layout):
    a, a_scale, b, b_scale = random_inputs(m, n, k, "cuda", layout, seed=m * 7 + n + k)
    ref = reference(a, a_scale, b, b_scale)
    out = _poisoned(m, n, out_dtype)
    r = blockfp8.gemm(a, a_scale, b, b_scale, out=out)
    assert r is out
    torch.cuda.synchronize()
    assert not out.isnan().any(), f"{out.isnan().sum().item()} of {m * n} outputs not written"
    assert rel_err(out, ref) <= TOL


@requires_hopper
@pytest.mark.parametrize("out_dtype", OUT_DTYPES, ids=lambda d: str(d).split(".")[-1])
@pytest.mark.parametrize("m,n,k", SHAPES[:6], ids=["x".join(map(str, s)) for s in SHAPES[:6]])
def test_numerics_functional(m, n, k, out_dtype):
    a, a_scale, b, b_scale = random_inputs(m, n, k, "cuda", seed=m + n + k)
    # Freed NaN block of the output's size: the caching allocator most likely hands it back.
    p = _poisoned(m, n, out_dtype)
    del p
    c = blockfp8.gemm(a, a_scale, b, b_scale, out_dtype=out_dtype)
    assert c.shape == (m, n) and c.dtype == out_dtype and c.device == a.device
    torch.cuda.synchronize()
    assert not c.isnan().any()
    assert rel_err(c, reference(a, a_scale, b, b_scale)) <= TOL


@requires_hopper
def test_scale_layouts_agree_and_deterministic():
    m, n, k = 37, 2112, 7168
    a, a_row, b, b_scale = random_inputs(m, n, k, "cuda", "row", seed=1)
    a_col = a_row.t().contiguous().t()
    assert a_col.stride() == (1, m)
    c1 = blockfp8.gemm(a, a_row, b, b_scale)
    c2 = blockfp8.gemm(a, a_col, b, b_scale)
    c3 = blockfp8.gemm(a, a_row, b, b_scale)
    c4 = torch.ops.blockfp8.gemm(a, a_col, b, b_scale, torch.bfloat16)  # the registered op's path
    assert torch.equal(c1, c2) and torch.equal(c1, c3) and torch.equal(c1, c4)


@requires_hopper
def test_strided_operands_and_out():
    # Row strides > K / > N: a and b slices of wider buffers, out a slice of a wider buffer whose
    # extra columns must stay untouched. Broadcast (stride-0) b_scale along K.
    m, n, k = 5, 300, 512
    a0, a_scale, b0, b_scale = random_inputs(m, n, k + 128, "cuda", seed=2)
    a, b = a0[:, :k], b0[:, :k]
    a_scale, b_scale = a_scale[:, : k // 128], b_scale[:, :1].expand(-1, k // 128)
    buf = torch.full((m, n + 16), -7.0, dtype=torch.bfloat16, device="cuda")
    out = buf[:, :n]
    blockfp8.gemm(a, a_scale, b, b_scale, out=out)
    torch.cuda.synchronize()
    assert rel_err(out, reference(a, a_scale, b, b_scale)) <= TOL
    assert (buf[:, n:] == -7.0).all()


@requires_hopper
def test_m_zero():
    a, a_scale, b, b_scale = random_inputs(0, 256, 256, "cuda")
    c = blockfp8.gemm(a, a_scale, b, b_scale)
    assert c.shape == (0, 256)


@requires_hopper
def test_w8a8_block_fp8_matmul_matches_gemm():
    a, a_scale, b, b_scale = random_inputs(6, 576, 1024, "cuda", seed=3)
    A, As = a.view(2, 3, 1024), a_scale.view(2, 3, 8)
    C = blockfp8.w8a8_block_fp8_matmul(A, b, As, b_scale, [128, 128], torch.bfloat16)
    assert C.shape == (2, 3, 576) and C.dtype == torch.bfloat16
    assert torch.equal(C.view(6, 576), blockfp8.gemm(a, a_scale, b, b_scale, out_dtype=torch.bfloat16))
    C16 = blockfp8.w8a8_block_fp8_matmul(A, b, As, b_scale, [128, 128])
    assert C16.dtype == torch.float16


@requires_hopper
def test_runs_on_current_stream_without_sync():
    m, n, k = 4, 2112, 7168
    a, a_scale, b, b_scale = random_inputs(m, n, k, "cuda", seed=4)
    blockfp8.gemm(a, a_scale, b, b_scale)  # warm-up: module loading must not be timed
    out = _poisoned(m, n, torch.bfloat16)
    torch.cuda.synchronize()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        torch.cuda._sleep(int(2e8))  # ~0.1 s of GPU time on s
        t0 = time.perf_counter()
        blockfp8.gemm(a, a_scale, b, b_scale, out=out)
        host_s = time.perf_counter() - t0
    assert host_s < 0.05, f"the call blocked for {host_s * 1e3:.1f} ms: it must not synchronise"
    # s is a non-blocking stream: a copy on the default stream does not wait for it, so if the GEMM
    # was queued behind the sleep on s, the output still reads NaN here.
    early = out.to("cpu")
    s.synchronize()
    assert early.isnan().all(), "the GEMM did not run on the current stream"
    assert rel_err(out, reference(a, a_scale, b, b_scale)) <= TOL


def capture_gemms(a, a_scale, b, b_scale, out):
    """gemm() and gemm(out=) captured in one CUDA graph on the current device, after a warm-up on a
    side stream; returns the graph and gemm()'s output."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):  # warm-up outside capture
        blockfp8.gemm(a, a_scale, b, b_scale)
        blockfp8.gemm(a, a_scale, b, b_scale, out=out)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    # A capture stream of the current device, given explicitly: torch.cuda.graph's default capture
    # stream is created once per process, on the device current at the first capture, so a later
    # capture under torch.cuda.device(1) ran on cuda:0's stream and recorded nothing of cuda:1's work
    # (the GEMM then ran eagerly on cuda:1's default stream; s10 calls 5-9).
    with torch.cuda.graph(g, stream=torch.cuda.Stream()):
        c = blockfp8.gemm(a, a_scale, b, b_scale)
        blockfp8.gemm(a, a_scale, b, b_scale, out=out)
    return g, c


def refill(inputs, m, n, k, device, seed):
    """Fresh random values into the captured input tensors, in place."""
    for dst, src in zip(inputs, random_inputs(m, n, k, device, seed=seed)):
        dst.copy_(src)


@requires_hopper
def test_cuda_graph_capture_and_replay():
    m, n, k = 8, 2112, 7168
    a, a_scale, b, b_scale = random_inputs(m, n, k, "cuda", seed=5)
    out = torch.empty(m, n, dtype=torch.bfloat16, device="cuda")
    g, c = capture_gemms(a, a_scale, b, b_scale, out)
    for seed in (6, 7):
        refill((a, a_scale, b, b_scale), m, n, k, "cuda", seed)
        c.fill_(float("nan"))
        out.fill_(float("nan"))
        g.replay()
        torch.cuda.synchronize()
        expect = blockfp8.gemm(a, a_scale, b, b_scale)
        assert torch.equal(c, expect) and torch.equal(out, expect)


@requires_hopper
def test_torch_compile_fullgraph():
    torch._dynamo.reset()
    m, n, k = 16, 576, 7168
    a, a_scale, b, b_scale = random_inputs(m, n, k, "cuda", seed=8)
    bias = torch.randn(n, device="cuda", dtype=torch.bfloat16)

    def f(a, a_scale, b, b_scale, out):
        y = blockfp8.gemm(a, a_scale, b, b_scale) + bias
        blockfp8.gemm(a, a_scale, b, b_scale, out=out)
        z = blockfp8.w8a8_block_fp8_matmul(a.view(2, 8, k), b, a_scale.view(2, 8, k // 128), b_scale, [128, 128],
                                           torch.float32)
        return y, out, z

    out_e = torch.empty(m, n, dtype=torch.float16, device="cuda")
    out_c = torch.empty_like(out_e)
    ye, _, ze = f(a, a_scale, b, b_scale, out_e)
    yc, oc, zc = torch.compile(f, fullgraph=True)(a, a_scale, b, b_scale, out_c)
    assert oc is out_c or torch.equal(oc, out_c)
    assert torch.equal(out_c, out_e) and torch.equal(zc, ze)
    assert (yc.float() - ye.float()).abs().max().item() <= 1e-2 * ye.float().abs().max().item()


@requires_hopper
def test_torch_compile_reduce_overhead():
    torch._dynamo.reset()
    m, n, k = 2, 2112, 7168
    a, a_scale, b, b_scale = random_inputs(m, n, k, "cuda", seed=9)
    f = torch.compile(lambda a, s, b, t: blockfp8.gemm(a, s, b, t), fullgraph=True, mode="reduce-overhead")
    expect = blockfp8.gemm(a, a_scale, b, b_scale)
    for _ in range(3):  # warm-up, record, replay
        got = f(a, a_scale, b, b_scale).clone()
    assert torch.equal(got, expect)


def _two_hoppers():
    return torch.cuda.device_count() >= 2 and all(torch.cuda.get_device_capability(i) == (9, 0) for i in (0, 1))


requires_two_hoppers = pytest.mark.skipif(
    not _two_hoppers(), reason="needs two compute capability 9.0 CUDA devices (torch.cuda.device_count() >= 2)")


@requires_two_hoppers
def test_second_device_with_cuda0_current():
    # Tensors on cuda:1 while cuda:0 is current: the call must run on cuda:1 (under a device guard),
    # restore cuda:0, and match a float64 reference computed on cuda:1.
    torch.cuda.set_device(0)
    a, a_scale, b, b_scale = random_inputs(5, 2112, 7168, "cuda:1", seed=10)
    ref = reference(a, a_scale, b, b_scale)
    assert ref.device == torch.device("cuda:1")
    c = blockfp8.gemm(a, a_scale, b, b_scale)
    assert torch.cuda.current_device() == 0, "the device guard must restore the current device"
    assert c.device == torch.device("cuda:1")
    torch.cuda.synchronize(1)
    assert rel_err(c, ref) <= TOL
    out = _poisoned(5, 2112, torch.float32, device="cuda:1")
    blockfp8.gemm(a, a_scale, b, b_scale, out=out)
    torch.cuda.synchronize(1)
    assert torch.cuda.current_device() == 0
    assert not out.isnan().any() and rel_err(out, ref) <= TOL


@requires_two_hoppers
def test_second_device_runs_on_its_current_stream():
    # cuda:0 current, cuda:1's current stream a side stream held up by a sleep: the GEMM must be
    # queued on that stream (cuda:1's, not cuda:0's and not cuda:1's default), without a sync.
    m, n, k = 4, 2112, 7168
    torch.cuda.set_device(0)
    a, a_scale, b, b_scale = random_inputs(m, n, k, "cuda:1", seed=12)
    blockfp8.gemm(a, a_scale, b, b_scale)  # warm-up (module load) outside the timed part
    out = _poisoned(m, n, torch.bfloat16, device="cuda:1")
    torch.cuda.synchronize(1)
    s1 = torch.cuda.Stream(device=1)
    with torch.cuda.stream(s1):        # makes cuda:1 current with s1 as its stream
        torch.cuda._sleep(int(2e8))    # ~0.1 s of GPU time on s1
        torch.cuda.set_device(0)       # cuda:0 current again; cuda:1's current stream stays s1
        t0 = time.perf_counter()
        blockfp8.gemm(a, a_scale, b, b_scale, out=out)
        host_s = time.perf_counter() - t0
        assert torch.cuda.current_device() == 0
    assert host_s < 0.05, f"the call blocked for {host_s * 1e3:.1f} ms: it must not synchronise"
    early = out.to("cpu")              # cuda:1's default stream: does not wait for s1
    s1.synchronize()
    assert early.isnan().all(), "the GEMM did not run on cuda:1's current stream"
    assert rel_err(out, reference(a, a_scale, b, b_scale)) <= TOL


@requires_two_hoppers
@pytest.mark.parametrize("moved", ["a", "a_scale", "b", "b_scale", "out"])
def test_tensors_split_over_two_devices_name_the_argument(moved):
    a, a_scale, b, b_scale = random_inputs(5, 2112, 7168, "cuda:1", seed=13)
    args = dict(a=a, a_scale=a_scale, b=b, b_scale=b_scale,
                out=torch.empty(5, 2112, dtype=torch.bfloat16, device="cuda:1"))
    args[moved] = args[moved].to("cuda:0")
    # The message names a's device and the first argument that differs from it.
    odd = "a is on cuda:0, a_scale on cuda:1" if moved == "a" else f"a is on cuda:1, {moved} on cuda:0"
    pattern = "all tensors must be on one CUDA device; " + odd
    for dev in (0, 1):  # whichever device is current
        torch.cuda.set_device(dev)
        with pytest.raises(ValueError, match=pattern):
            blockfp8.gemm(**args)
        kwargs = {key: v for key, v in args.items() if key != "out"}
        if moved != "out":
            with pytest.raises(ValueError, match=pattern):
                blockfp8.gemm(**kwargs)
    torch.cuda.set_device(0)


@requires_two_hoppers
def test_cuda_graph_captured_on_second_device():
    m, n, k = 8, 2112, 7168
    torch.cuda.set_device(0)
    a, a_scale, b, b_scale = random_inputs(m, n, k, "cuda:1", seed=14)
    out = torch.empty(m, n, dtype=torch.bfloat16, device="cuda:1")
    with torch.cuda.device(1):
        g, c = capture_gemms(a, a_scale, b, b_scale, out)
    assert torch.cuda.current_device() == 0 and c.device == torch.device("cuda:1")
    for seed in (15, 16):
        refill((a, a_scale, b, b_scale), m, n, k, "cuda:1", seed)
        c.fill_(float("nan"))
        out.fill_(float("nan"))
        g.replay()                   # replayed while cuda:0 is current
        torch.cuda.synchronize(1)
        ref = reference(a, a_scale, b, b_scale)
        assert rel_err(c, ref) <= TOL and torch.equal(c, out)
        assert torch.equal(c, blockfp8.gemm(a, a_scale, b, b_scale))


def test_mixed_cpu_cuda_refused():
    a, a_scale, b, b_scale = random_inputs(2, 256, 256, "cuda")
    with pytest.raises(ValueError, match=r"b_scale.*cpu|b_scale on cpu"):
        blockfp8.gemm(a, a_scale, b, b_scale.cpu())
    with pytest.raises(ValueError, match="must be a CUDA tensor"):
        blockfp8.gemm(a.cpu(), a_scale.cpu(), b.cpu(), b_scale.cpu())


@requires_hopper
def test_c_status_raises_blockfp8error():
    # out overlapping a: only C sees addresses, and must say BLOCKFP8_ERROR_ALIASING.
    m, n, k = 4, 64, 256
    buf = torch.zeros(m * k, dtype=torch.uint8, device="cuda")
    a = buf.view(FP8).view(m, k)
    out = buf[: m * n * 2].view(torch.bfloat16).view(m, n)
    _, a_scale, b, b_scale = random_inputs(m, n, k, "cuda")
    with pytest.raises(blockfp8.BlockFP8Error) as ei:
        blockfp8.gemm(a, a_scale, b, b_scale, out=out)
    assert ei.value.status == _lib.ERROR_ALIASING and ei.value.name == "BLOCKFP8_ERROR_ALIASING"
    assert "BLOCKFP8_ERROR_ALIASING" in str(ei.value)


@pytest.mark.skipif(is_hopper(), reason="checks the refusal on a non-Hopper GPU")
def test_non_hopper_device_refused():
    a, a_scale, b, b_scale = random_inputs(2, 256, 256, "cuda")
    with pytest.raises(blockfp8.BlockFP8Error) as ei:
        blockfp8.gemm(a, a_scale, b, b_scale)
    assert ei.value.name == "BLOCKFP8_ERROR_UNSUPPORTED_DEVICE"


@requires_hopper
def test_plan_and_config_name():
    cfg = blockfp8.plan(1, 2112, 7168)
    assert cfg.kernel in (_lib.KERNEL_SWAPAB_SPLITK, _lib.KERNEL_WARP_MMA, _lib.KERNEL_SIMT)
    assert blockfp8.config_name(cfg)
    # resolve: AUTO is the plan; a forced tiled split of 576x7168 at M = 512 gets the defaults it runs with.
    assert blockfp8.config_name(blockfp8.resolve(1, 2112, 7168, blockfp8.Config())) == blockfp8.config_name(cfg)
    forced = blockfp8.resolve(512, 576, 7168, blockfp8.Config(_lib.KERNEL_TILED, 0, 3, 0, 0, 64))
    assert (forced.token_tile, forced.split_k, forced.weight_rows, forced.cluster_m) == (128, 3, 64, 1)
    assert forced.stages > 0 and forced.warpgroups > 0
    with pytest.raises(blockfp8.BlockFP8Error) as ei:  # 64 rows split 3 at M = 4096: too many clusters
        blockfp8.resolve(4096, 7168, 7168, blockfp8.Config(_lib.KERNEL_TILED, 0, 3, 0, 0, 64))
    assert ei.value.name == "BLOCKFP8_ERROR_INVALID_CONFIG"


@requires_hopper
def test_host_overhead():
    """Host time per eager call (M=1, N=2112, K=7168), next to torch ops. The lent hosts differ by
    nearly 2x run to run (x.add_ measured 6.5 to 11 us), so the limit is relative: a blockfp8.gemm
    call within BLOCKFP8_MAX_HOST_RATIO (default 2) x one eager torch op with a kernel launch
    (x.add_); BLOCKFP8_MAX_HOST_US, when set, adds an absolute limit (the issue's goal is 10 us)."""
    ratio = float(os.environ.get("BLOCKFP8_MAX_HOST_RATIO", "2"))
    limit = float(os.environ.get("BLOCKFP8_MAX_HOST_US", "inf"))
    a, a_scale, b, b_scale = random_inputs(1, 2112, 7168, "cuda", seed=11)
    out = torch.empty(1, 2112, dtype=torch.bfloat16, device="cuda")
    x = torch.zeros(16, device="cuda")

    def per_call_us(fn, n=200, reps=15):
        for _ in range(20):
            fn()
        best = math.inf
        for _ in range(reps):  # bursts short enough not to fill the launch queue: host time only
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            best = min(best, time.perf_counter() - t0)
        torch.cuda.synchronize()
        return best / n * 1e6

    view_us = per_call_us(lambda: x.view(-1))
    add_us = per_call_us(lambda: x.add_(1.0))
    gemm_us = per_call_us(lambda: blockfp8.gemm(a, a_scale, b, b_scale))
    gemm_out_us = per_call_us(lambda: blockfp8.gemm(a, a_scale, b, b_scale, out=out))
    op_us = per_call_us(lambda: torch.ops.blockfp8.gemm(a, a_scale, b, b_scale, torch.bfloat16))
    w = blockfp8.Weight(b, b_scale)
    weight_us = per_call_us(lambda: w(a, a_scale))
    weight_out_us = per_call_us(lambda: w(a, a_scale, out=out))
    # Parts of the eager path, to see where the time goes when the limit is missed.
    from blockfp8 import _lib, ops
    c_args = (1, 2112, 7168, a.data_ptr(), 7168, a_scale.data_ptr(), *a_scale.stride(), b.data_ptr(), 7168,
              b_scale.data_ptr(), *b_scale.stride(), out.data_ptr(), 2112, _lib.DTYPE_BF16,
              torch.cuda.current_stream().cuda_stream)
    fast_gemm = _lib.lib().fast_gemm
    c_us = per_call_us(lambda: fast_gemm(*c_args))
    ext = _lib.fastcall_module()  # the _fastcall extension gemm() calls through; None: ctypes
    ext_us = per_call_us(lambda: ext.gemm(*c_args)) if ext is not None else math.nan
    alloc_us = per_call_us(lambda: a.new_empty(1, 2112, dtype=torch.bfloat16))
    dev = a.device
    alloc2_us = per_call_us(lambda: torch.empty(1, 2112, dtype=torch.bfloat16, device=dev))
    check_us = per_call_us(lambda: ops._check_shapes(a, a_scale, b, b_scale, "f"))
    print(f"\nhost us/call: x.view {view_us:.2f} | x.add_ (kernel launch) {add_us:.2f} | "
          f"blockfp8.gemm {gemm_us:.2f} | gemm(out=) {gemm_out_us:.2f} | torch.ops.blockfp8.gemm {op_us:.2f}"
          f" | blockfp8.Weight call {weight_us:.2f} | Weight(out=) {weight_out_us:.2f}"
          f"\n  parts: ctypes+C call {c_us:.2f} | ext C call {ext_us:.2f} | output alloc+free: new_empty "
          f"{alloc_us:.2f}, torch.empty(device=) {alloc2_us:.2f} | checked path's _check_shapes {check_us:.2f} | "
          f"python side of gemm(out=) {gemm_out_us - (c_us if ext is None else ext_us):.2f}"
          f"\n  gemm calls C through: {_lib.fastcall_status()}")
    assert gemm_us <= ratio * add_us, f"blockfp8.gemm {gemm_us:.2f} us > {ratio} x x.add_ ({add_us:.2f} us)"
    assert min(weight_out_us, gemm_out_us) <= ratio * add_us
    assert gemm_us <= limit, f"blockfp8.gemm host overhead {gemm_us:.2f} us > {limit} us"


@requires_hopper
def test_prepared_weight_matches_gemm():
    a, a_scale, b, b_scale = random_inputs(5, 2112, 7168, "cuda", "col", seed=21)
    w = blockfp8.Weight(b, b_scale)
    want = blockfp8.gemm(a, a_scale, b, b_scale)
    got = w(a, a_scale)
    assert torch.equal(got.view(torch.int16), want.view(torch.int16))
    out = _poisoned(5, 2112, torch.float32)
    assert w(a, a_scale, out=out) is out and torch.equal(out, blockfp8.gemm(a, a_scale, b, b_scale, torch.float32))
    # Values may change after preparation (the addresses are what is cached).
    b.copy_((torch.randn(b.shape, device="cuda") * 2).to(FP8))
    assert torch.equal(w(a, a_scale).view(torch.int16), blockfp8.gemm(a, a_scale, b, b_scale).view(torch.int16))
    with pytest.raises(ValueError, match="same K"):
        w(a[:, :128], a_scale[:, :1])
    compiled = torch.compile(lambda x, s: w(x, s), fullgraph=True)
    now = blockfp8.gemm(a, a_scale, b, b_scale)
    assert torch.equal(compiled(a, a_scale).view(torch.int16), now.view(torch.int16))
