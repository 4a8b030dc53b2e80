"""CPU tests of blockfp8.bench (python -m blockfp8.bench): everything but the GPU timing."""
import json
import math
import os
import subprocess
import sys

import pytest

from blockfp8 import bench
from conftest import REPO_ROOT


def test_deepseek_shapes_match_the_cpp_set():
    shapes = bench.deepseek_shapes([1, 2, 4, 8])
    assert len(shapes) == 31  # the C++ bench's count (bench/results/2026-11-29-h200.md)
    assert len({(n, k) for n, k, _ in shapes}) == len(shapes)
    assert shapes[0] == (2112, 7168, "fused_qkv_a")
    assert all(k % 128 == 0 and n >= 1 for n, k, _ in shapes)
    names = dict(((n, k), name) for n, k, name in shapes)
    assert names[(24576, 1536)] == "q_b/tp1"
    assert names[(7168, 2048)] == "aux_7168x2048/tp1|o_proj/tp8"  # deduped, names merged in order
    latest = os.path.join(REPO_ROOT, "bench", "results", "latest.jsonl")
    if os.path.exists(latest):  # the same (N, K) set and names as a committed C++ run
        with open(latest) as f:
            cpp = {(r["N"], r["K"]): r["shape"] for r in map(json.loads, filter(str.strip, f))
                   if r.get("backend") == "floor"}
        assert cpp == names


def test_add_shape_dedupes_and_merges_names():
    s = []
    bench.add_shape(s, 10, 128, "a")
    bench.add_shape(s, 10, 128, "b")
    bench.add_shape(s, 10, 128, "a")
    bench.add_shape(s, 11, 128, "")
    assert s == [(10, 128, "a|b"), (11, 128, "")]


def test_parse_args_defaults_and_options():
    a = bench.parse_args([])
    assert a.m == bench.DEFAULT_M and a.m[-1] == 4096 and a.replays == 20 and a.l2_factor == 3.0
    assert a.settle_ms == 100.0 and a.settle_min_us == 20.0
    assert bench.parse_args(["--settle-ms", "0"]).settle_ms == 0.0
    assert len(a.shapes) == 31 and a.backends == bench.PEERS
    a = bench.parse_args(["--shape", "2112,7168", "--shape", "576x7168", "--shape", "2112,7168",
                          "--m", "64,1,64", "--backends", "torch,blockfp8", "--json", "x.jsonl"])
    assert a.shapes == [(2112, 7168, "user"), (576, 7168, "user")]
    assert a.m == [1, 64] and a.backends == ["blockfp8", "torch"] and a.json == "x.jsonl"
    assert [n for n, _, _ in bench.parse_args(["--tp", "8"]).shapes][:3] == [2112, 576, 3072]


@pytest.mark.parametrize("argv", [["--shape", "1,100"], ["--shape", "0,128"], ["--shape", "a,b"],
                                  ["--m", "0"], ["--m", "1,x"], ["--tp", ""], ["--backends", "cublas"]])
def test_parse_args_rejects(argv, capsys):
    with pytest.raises(SystemExit) as e:
        bench.parse_args(argv)
    assert e.value.code == 2


def test_copies_and_bytes():
    l2 = 60 << 20
    assert bench.weight_bytes(256, 256) == 256 * 256 + 4 * 2 * 2
    assert bench.call_bytes(2, 256, 256) == bench.weight_bytes(256, 256) + 2 * 256 + 4 * 2 * 2 + 2 * 2 * 256
    c = bench.copies_for(l2, 2112 * 7168)
    assert c * 2112 * 7168 >= 3 * l2 and (c - 1) * 2112 * 7168 < 3 * l2
    assert bench.copies_for(l2, 10 ** 10) == 2           # at least two, even for huge operands
    assert bench.copies_for(l2, 1000) == 512             # capped
    assert bench.copies_for(l2, 1000, max_copies=7) == 7
    assert bench.copies_for(l2, l2, factor=5) == 5


def test_median_and_hot_calls():
    assert bench.median([3, 1, 2]) == 2 and bench.median([4, 1, 3, 2]) == 2.5
    with pytest.raises(ValueError):
        bench.median([])
    assert bench.hot_calls(10.0) == 200 and bench.hot_calls(1e6) == 4 and bench.hot_calls(0.1) == 256
    assert bench.hot_calls(0) == 256


def _rows():
    base = {"shape": "s", "N": 256, "K": 256}
    return [dict(base, backend="floor", M=0, config="torch_sum_i64", cold_us=2.0, hot_us=1.0, bytes=65536, flops=0),
            dict(base, backend="blockfp8", M=4, config="swapab_t8", cold_us=4.0, hot_us=3.0, rel_err=1e-3,
                 written=True, bytes=70000, flops=2.0 * 4 * 256 * 256),
            dict(base, backend="torch", M=4, config="scales_mmajor_view", cold_us=8.0, hot_us=None,
                 rel_err=2e-3, written=False, bytes=70000, flops=2.0 * 4 * 256 * 256),
            dict(base, backend="deep_gemm", M=4, error="RuntimeError: nope | bad")]


def test_json_line_keys_match_the_cpp_bench():
    info = {"commit": "abc", "gpu": "NVIDIA H200", "date": "2026-01-01T00:00:00Z", "l2_bytes": 1}
    lines = [json.loads(bench.json_line(r, info)) for r in _rows()]
    cpp = ["backend", "config", "shape", "N", "K", "M", "cold_us", "hot_us", "rel_err", "written",
           "commit", "gpu", "date"]
    for d in lines:
        assert all(k in d for k in cpp) and d["source"] == "python"
    assert list(lines[0])[:6] == cpp[:6]
    ours = lines[1]
    assert ours["gbps"] == pytest.approx(70000 / 4e-6 / 1e9, rel=1e-5)
    assert ours["tflops"] == pytest.approx(2.0 * 4 * 256 * 256 / 4e-6 / 1e12, rel=1e-5)
    assert ours["written"] is True and lines[2]["written"] is False and lines[2]["hot_us"] is None
    assert lines[3]["cold_us"] is None and lines[3]["error"].startswith("RuntimeError")
    assert json.loads(bench.json_line({"backend": "x", "cold_us": math.inf, "v": 1.23456789}, {}))["v"] == 1.23457
    assert json.loads(bench.json_line({"backend": "x", "cold_us": math.nan}, {}))["cold_us"] is None


def test_format_table():
    t = bench.format_table(_rows()).splitlines()
    assert t[0].startswith("| shape | M | backend / config | cold µs")
    assert len(t) == 2 + 4 and all(line.count("|") == 11 for line in t[:2])
    assert "| 256×256 s | 4 | blockfp8 `swapab_t8` | 4.00 | 3.00 | " in t[3] and "| 2.00 | - | 1.00e-03 |" in t[3]
    assert "| 8.00 | - |" in t[4] and "| 4.00 | 2.00 | 2.00e-03 UNWRITTEN |" in t[4]   # x floor, x blockfp8
    assert "| - | floor `torch_sum_i64` | 2.00 |" in t[2]
    assert "error: RuntimeError" in t[5]


def test_discover_peers():
    peers = bench.discover_peers()
    assert [p[0] for p in peers] == bench.PEERS
    assert all(isinstance(ok, bool) and isinstance(why, str) and why for _, ok, why in peers)
    assert dict((n, ok) for n, ok, _ in peers)["blockfp8"] and dict((n, ok) for n, ok, _ in peers)["torch"]
    for name, ok, why in peers:
        if not ok:
            assert "Error" in why
    assert bench.discover_peers(["deep_gemm"])[0][0] == "deep_gemm"


def test_plot_writes_one_png_per_shape(tmp_path):
    pytest.importorskip("matplotlib")
    rows = _rows() + [dict(_rows()[1], M=16, cold_us=5.0), dict(_rows()[1], N=512, M=1, cold_us=6.0)]
    paths = bench.plot(rows, str(tmp_path))
    assert sorted(os.path.basename(p) for p in paths) == ["shape_256x256.png", "shape_512x256.png"]
    assert all(os.path.getsize(p) > 1000 for p in paths)


def test_main_without_gpu_exits_cleanly():
    import torch
    if torch.cuda.is_available():
        pytest.skip("a GPU is present")
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO_ROOT, "python") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-m", "blockfp8.bench", "--shape", "256,256", "--m", "1"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 2
    assert "no CUDA device" in p.stderr and "Traceback" not in p.stderr


def test_parse_args_floor_gb():
    assert bench.parse_args([]).floor_gb == 0.0
    assert bench.parse_args(["--floor-gb", "1"]).floor_gb == 1.0


# ---------------------------------------------------------------------------------------------
# The torch peer: cuBLASLt's DeepSeek-recipe layouts (torch 2.11, sm_90)
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("m,n,k", [(16, 256, 256), (1, 2112, 7168), (5, 576, 384), (4, 128, 512)])
def test_torch_scale_layouts(m, n, k):
    import torch
    kb, nb = k // 128, -(-n // 128)
    g = torch.Generator().manual_seed(m + n + k)
    a = torch.randn(m, k, generator=g).to(torch.float8_e4m3fn)
    a_s, b_s = torch.rand(m, kb, generator=g) + 0.5, torch.rand(nb, kb, generator=g) + 0.5
    a_p, sa, sb = bench.torch_scale_layouts(a, a_s, b_s)
    mp, kb4 = -(-m // 4) * 4, -(-kb // 4) * 4
    # a zero-padded to a multiple of 4 rows; scale_a [Mp, K/128] M-major, padded rows zero
    assert a_p.shape == (mp, k) and torch.equal(a_p[:m].view(torch.uint8), a.view(torch.uint8))
    assert not a_p[m:].view(torch.uint8).any()
    assert sa.shape == (mp, kb) and (sa.stride() == (1, mp) or kb == 1)
    assert torch.equal(sa[:m], a_s) and not sa[m:].any()
    # scale_b [L4, N/128] K-major with leading dimension L4: block (j, kb) at j * L4 + kb
    assert sb.shape == (kb4, nb) and sb.stride() == (1, kb4)
    flat = sb.t().contiguous().view(-1)
    for j in range(nb):
        assert torch.equal(flat[j * kb4: j * kb4 + kb], b_s[j]) and not flat[j * kb4 + kb: (j + 1) * kb4].any()


@pytest.mark.parametrize("m,n,k", [(16, 256, 256), (1, 2048, 7168), (5, 256, 1536), (8, 384, 384)])
def test_torch_variants_pass_torchs_own_shape_checks(m, n, k):
    # torch's meta functions check the DeepSeek-recipe contract (shapes and strides) without a GPU.
    # N is a multiple of 128 here: torch 2.11's meta for scaled_mm wants N // 128 scale columns where
    # the CUDA kernel (rightly) wants ceil(N / 128); only the CUDA one runs in the bench.
    import torch
    kb, nb = k // 128, -(-n // 128)
    a = torch.empty(m, k, dtype=torch.float8_e4m3fn, device="meta")
    b = torch.empty(n, k, dtype=torch.float8_e4m3fn, device="meta")
    variants = bench._torch_variants(a, torch.empty(m, kb, device="meta"), b, torch.empty(nb, kb, device="meta"))
    labels = [label for label, _ in variants]
    assert labels[0].startswith("F.scaled_mm_1x128_128x128") and len(labels) == 2
    assert ("_mpad" in labels[0]) == (m % 4 != 0)
    c = variants[0][1]()
    assert c.shape == (m, n) and c.dtype == torch.bfloat16
    if kb % 4 == 0:
        assert variants[1][1]().shape == (m, n)
    else:  # refused, with the reason, instead of run with scales cuBLASLt would misread
        with pytest.raises(RuntimeError, match=r"K/128 % 4 == 0"):
            variants[1][1]()


def test_format_floor_gb():
    rows = [{"config": "triton_a", "cold_us": 250.0, "bytes": 10 ** 9},
            {"config": "triton_b", "cold_us": 230.0, "bytes": 10 ** 9},
            {"config": "triton_c", "error": "RuntimeError: no"}]
    t = bench.format_floor_gb(rows, 1.0).splitlines()
    assert t[0] == "floor on one 1 GB buffer" and t[2] == "| floor variant | µs | TB/s |"
    assert t[4] == "| triton_a | 250.0 | 4.000 |" and t[5] == "| triton_b (best) | 230.0 | 4.348 |"
    assert "error: RuntimeError" in t[6]


# ---------------------------------------------------------------------------------------------
# The floor: a Triton kernel where triton imports, the torch reductions where it does not
# ---------------------------------------------------------------------------------------------

def _runner_stub():
    import torch
    r = bench.Runner.__new__(bench.Runner)   # no GPU: only what floor_forms() reads
    r.torch, r.dev, r.info, r._floor_forms = torch, torch.device("cpu"), {"sm_count": 4}, None
    return r


def test_floor_forms_fall_back_to_torch_without_triton(monkeypatch):
    import torch
    monkeypatch.setitem(sys.modules, "blockfp8._floor_triton", None)   # import -> ImportError
    forms, note = _runner_stub().floor_forms()
    assert list(forms) == ["torch_sum_i64", "torch_amax_i32", "torch_sum_f32"]
    assert note.startswith("torch-only yardstick (no triton floor: ") and "Error" in note
    w = torch.arange(256, dtype=torch.uint8)
    assert forms["torch_sum_i64"](w).item() == w.view(torch.int64).sum().item()


def test_floor_forms_use_triton_when_it_imports():
    pytest.importorskip("triton")
    from blockfp8 import _floor_triton as ft
    forms, note = _runner_stub().floor_forms()
    assert list(forms) == [ft.label(c) for c in ft.CONFIGS] and note.startswith("triton streaming read")


def test_triton_floor_compiles_to_16_byte_loads():
    # Compiled for sm_90 on the host (triton ships ptxas): every global load must be a 16-byte .v4,
    # and ptxas must accept the modifiers (it refuses .cg combined with an evict_first hint).
    triton = pytest.importorskip("triton")
    import re
    try:
        from triton.backends.compiler import GPUTarget
    except ImportError:
        pytest.skip("this triton has no GPUTarget")
    from blockfp8 import _floor_triton as ft
    for block, warps, _ in ft.CONFIGS:
        src = triton.compiler.ASTSource(
            fn=ft._stream_read, signature={"src": "*i32", "sink": "*i32", "n_words": "i32"},
            constexprs={"BLOCK": block}, attrs={(0,): [["tt.divisibility", 16]], (2,): [["tt.divisibility", 16]]})
        try:
            kernel = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": warps})
        except Exception as e:  # noqa: BLE001
            if "ptxas" in str(e) and "error" not in str(e).lower():
                pytest.skip(f"no ptxas here: {e}")
            raise
        loads = re.findall(r"ld\.global\S*", kernel.asm["ptx"])
        assert loads and set(loads) == {"ld.global.cg.v4.b32"}, (block, warps, set(loads))
        assert len(loads) == block // (32 * warps * 4)  # every word of a tile in one pass of .v4 loads


def test_settle_replays():
    # Calls of 50 us, a replay of 10 calls = 0.5 ms: 100 ms of settling is 200 replays.
    assert bench.settle_replays(0.5, 10, 100.0, 20.0) == 200
    # Calls under the threshold (decode: 5 us) are timed as they come, as are settle_ms = 0 and no calls.
    assert bench.settle_replays(0.05, 10, 100.0, 20.0) == 0
    assert bench.settle_replays(0.5, 10, 0.0, 20.0) == 0
    assert bench.settle_replays(0.5, 0, 100.0, 20.0) == 0
    # A replay longer than the settling time still settles once; a tiny one is capped.
    assert bench.settle_replays(500.0, 1, 100.0, 20.0) == 1
    # Once a graph of the point settled, the point's later graphs settle whatever their calls take
    # (timing.cpp's begin_point); settle_ms = 0 still turns settling off.
    assert bench.settle_replays(0.05, 10, 100.0, 20.0, force=True) == 2000
    assert bench.settle_replays(0.05, 10, 0.0, 20.0, force=True) == 0
    assert bench.settle_replays(1e-9, 1, 100.0, 0.0) == 100000


def test_error_line_is_the_type_and_first_line():
    assert bench.error_line(ValueError("bad\nmore")) == "ValueError: bad"
    assert bench.error_line(RuntimeError()) == "RuntimeError: "
    assert len(bench.error_line(ValueError("x" * 500), 120)) == 120
