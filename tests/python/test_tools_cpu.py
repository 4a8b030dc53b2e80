"""CPU tests of the device-side analysis tools: tools/tiled_slope_table.py's k-block slope, tools/dispatch_inversions.py, tools/sass_wgmma_issue.py, tools/sass_same.py."""
import gzip
import importlib.util
import json
import os
import subprocess
import sys

from conftest import REPO_ROOT


def _tool(name="tiled_slope_table"):
    path = os.path.join(REPO_ROOT, "tools", name + ".py")
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _write(path, rows, gz=False):
    opener = gzip.open if gz else open
    with opener(path, "wt") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


def test_slope_is_the_time_per_k_block_between_the_two_k(tmp_path, capsys, monkeypatch):
    cfg = "tiled_t128_r192_p0_c1x1"
    for name, (short, long) in {"ref": (20.0, 68.0), "new": (16.0, 52.0)}.items():
        for rep in (1, 2):
            _write(tmp_path / f"slope_{name}_{rep}.jsonl{'.gz' if rep == 2 else ''}", [
                {"backend": f"blockfp8:{cfg}", "N": 2112, "K": 4096, "M": 256, "cold_us": short},
                {"backend": f"blockfp8:{cfg}", "N": 2112, "K": 16384, "M": 256, "cold_us": long},
            ], gz=rep == 2)
            _write(tmp_path / f"big_{name}_{rep}.jsonl", [
                {"backend": "blockfp8", "N": 2112, "K": 7168, "M": 4096, "cold_us": 100.0 if name == "ref" else 70.0},
            ])
    monkeypatch.setattr("sys.argv", ["tiled_slope_table.py", str(tmp_path), "ref", "new"])
    assert _tool().main() == 0
    out = capsys.readouterr().out
    # (68 - 20) us over 96 k-blocks = 500 ns; the fixed part 20 - 32 x 0.5 = 4 us.
    assert f"| ref | {cfg} | 20.00 | 68.00 | 500.0 | 990 | 4.00 |" in out
    assert f"| new | {cfg} | 16.00 | 52.00 | 375.0 | 742 | 4.00 |" in out
    assert "| new | 70.00 (0.700) |" in out


def test_inversions_name_the_smaller_m_and_its_best_larger_m(tmp_path, capsys):
    rows = [
        {"backend": "blockfp8", "N": 4096, "K": 512, "M": 64, "cold_us": 4.4, "config": "tiled_a"},
        {"backend": "blockfp8", "N": 4096, "K": 512, "M": 128, "cold_us": 5.7, "config": "decode_b"},
        {"backend": "blockfp8", "N": 4096, "K": 512, "M": 256, "cold_us": 5.4, "config": "tiled_c"},
        {"backend": "blockfp8", "N": 4096, "K": 512, "M": 512, "cold_us": 5.0, "config": "tiled_d"},
        # within the margin: not an inversion; another backend: ignored
        {"backend": "blockfp8", "N": 2112, "K": 7168, "M": 1, "cold_us": 6.2, "config": "w"},
        {"backend": "blockfp8", "N": 2112, "K": 7168, "M": 2, "cold_us": 6.15, "config": "w"},
        {"backend": "cublaslt", "N": 2112, "K": 7168, "M": 4, "cold_us": 1.0, "config": "lt"},
    ]
    _write(tmp_path / "run.jsonl.gz", rows, gz=True)
    assert _tool("dispatch_inversions").main([str(tmp_path / "run.jsonl.gz")]) == 0
    out = capsys.readouterr().out
    # M = 128 (5.7) loses to M = 256 (5.4) and 512 (5.0): the fastest larger M is named.
    assert "| 4096x512 | 128 | 5.70 | decode_b | 512 | 5.00 | tiled_d |" in out
    assert "| 4096x512 | 256 | 5.40 | tiled_c | 512 | 5.00 | tiled_d |" in out
    assert "| 4096x512 | 64 |" not in out
    assert "2112x7168" not in out


_SASS = """
        code for sm_90a
                Function : _Z6beforev
        /*0000*/                   IADD3 R4, P0, R2, 0x2, RZ ;                       /* 0x0 */
        /*0010*/                   R2UR UR16, R4 ;                                   /* 0x0 */
        /*0020*/                   R2UR UR17, R5 ;                                   /* 0x0 */
        /*0030*/                   WARPGROUP.ARRIVE ;                                /* 0x0 */
        /*0040*/                   QGMMA.64x128x32.F32.E4M3.E4M3 R24, gdesc[UR16], RZ, !UPT ; /* 0x0 */
        /*0050*/                   NOP ;                                             /* 0x0 */
        /*0060*/                   R2UR UR20, R6 ;                                   /* 0x0 */
        /*0070*/                   QGMMA.64x128x32.F32.E4M3.E4M3 R24, gdesc[UR20], R24 ; /* 0x0 */
                Function : _Z5afterv
        /*0000*/                   UIADD3.64 UR28, UR8, 0x2, URZ ;                   /* 0x0 */
        /*0010*/                   WARPGROUP.ARRIVE ;                                /* 0x0 */
        /*0020*/                   QGMMA.64x128x32.F32.E4M3.E4M3 R24, gdesc[UR8], RZ, !UPT ; /* 0x0 */
        /*0030*/                   QGMMA.64x128x32.F32.E4M3.E4M3 R24, gdesc[UR28], R24 ; /* 0x0 */
"""


def test_sass_wgmma_issue_counts_what_precedes_each_wgmma(tmp_path, capsys):
    tool = _tool("sass_wgmma_issue")
    funcs = tool.functions(_SASS)
    assert list(funcs) == ["_Z6beforev", "_Z5afterv"]
    # before: three R2UR and one NOP among the instructions before its two wgmmas; after: none.
    assert tool.issue_stats(funcs["_Z6beforev"]) == (8, 2, 3, 1)
    assert tool.issue_stats(funcs["_Z5afterv"]) == (4, 2, 0, 0)
    p = tmp_path / "dump.sass"
    p.write_text(_SASS)
    assert tool.main([str(p), "--match", "after"]) == 0
    out = capsys.readouterr().out
    assert "| after | 4 | 2 | 0 | 0 |" in out and "| before |" not in out


def test_forced_vs_dispatch_marks_the_pick_and_counts_the_points_within_5_percent(tmp_path):
    pick = "tiled_t128_r96_p7_c1x1_k8"
    run = [{"backend": "floor", "N": 576, "K": 7168, "M": 0, "cold_us": 2.7}]
    # M = 256: the tiled defaults run as the pick (=pick, a repeat), a decode split is 1.2x: within 5 %.
    # M = 512: a forced split is 0.9x the pick's time: a miss. Old rows without runs_as count as other kernels.
    run += [
        {"backend": "blockfp8", "N": 576, "K": 7168, "M": 256, "cold_us": 10.0, "config": pick},
        {"backend": "blockfp8:tiled_t0_r0_p0_c0x0", "N": 576, "K": 7168, "M": 256, "cold_us": 9.8,
         "config": "tiled_t0_r0_p0_c0x0", "runs_as": pick},
        {"backend": "blockfp8:swapab_r64_t128_s5_w2_k1_p6", "N": 576, "K": 7168, "M": 256, "cold_us": 12.0,
         "config": "swapab_r64_t128_s5_w2_k1_p6"},
        {"backend": "blockfp8", "N": 576, "K": 7168, "M": 512, "cold_us": 20.0, "config": pick},
        {"backend": "blockfp8:tiled_t128_r96_p7_c1x1_k4", "N": 576, "K": 7168, "M": 512, "cold_us": 18.0,
         "config": "tiled_t128_r96_p7_c1x1_k4"},
    ]
    _write(tmp_path / "run.jsonl", run)
    out = subprocess.run([sys.executable, os.path.join(REPO_ROOT, "tools", "forced_vs_dispatch.py"),
                          str(tmp_path / "run.jsonl")], capture_output=True, text=True, check=True).stdout
    line256 = next(l for l in out.splitlines() if "M=256" in l)
    assert "tiled_t0_r0_p0_c0x0=pick:0.980" in line256 and "swapab_r64_t128_s5_w2_k1_p6:1.200" in line256
    assert "(3.70x)" in line256
    assert "tiled_t128_r96_p7_c1x1_k4:0.900" in next(l for l in out.splitlines() if "M=512" in l)
    assert "the pick within 5 % of every other kernel at 1 of 2 points" in out


def test_dispatch_variants_plans_where_picks_differ_and_ranks_them(tmp_path, capsys):
    tool = _tool("dispatch_variants")
    base = {(576, 7168, 256): "decode_a", (576, 7168, 512): "decode_b", (2112, 7168, 1): "warp"}
    new = {**base, (576, 7168, 256): "tiled_a", (576, 7168, 512): "tiled_b"}
    for name, table in (("main", base), ("new", new)):
        with open(tmp_path / f"{name}.txt", "w") as f:
            f.writelines(f"{n} {k} {m} {c}\n" for (n, k, m), c in table.items())
    out = tmp_path / "plan"
    assert tool.main(["x", "plan", str(out), f"main={tmp_path / 'main.txt'}", f"new={tmp_path / 'new.txt'}"]) == 0
    variants = (out / "variants.txt").read_text().splitlines()
    assert variants == ["# N K M main new", "576 7168 256 decode_a tiled_a", "576 7168 512 decode_b tiled_b"]
    assert (out / "bench_args.txt").read_text() == (
        "576,7168 256,512 --config decode_a --config decode_b --config tiled_a --config tiled_b\n")
    # A forced row that ran as another name counts under that name (runs_as); the best here is a third one.
    _write(tmp_path / "run.jsonl.gz", [
        {"backend": "blockfp8:decode_a", "N": 576, "K": 7168, "M": 256, "config": "decode_a", "cold_us": 10.0},
        {"backend": "blockfp8:tiled_t0", "N": 576, "K": 7168, "M": 256, "config": "tiled_t0", "runs_as": "tiled_a",
         "cold_us": 9.0},
        {"backend": "blockfp8:other", "N": 576, "K": 7168, "M": 256, "config": "other", "cold_us": 8.0},
        {"backend": "blockfp8:decode_b", "N": 576, "K": 7168, "M": 512, "config": "decode_b", "cold_us": 12.0},
        {"backend": "blockfp8:tiled_b", "N": 576, "K": 7168, "M": 512, "config": "tiled_b", "cold_us": 12.5},
        {"backend": "blockfp8", "N": 576, "K": 7168, "M": 512, "config": "decode_b", "cold_us": 1.0},  # not forced
    ], gz=True)
    capsys.readouterr()
    assert tool.main(["x", "analyse", str(out / "variants.txt"), str(tmp_path / "run.jsonl.gz")]) == 0
    text = capsys.readouterr().out
    assert "best    8.00 other" in text
    assert "main: 2 points, geometric mean 1.1180 x the best, within 5 % at 1, worst 1.250" in text
    assert "new: 2 points, geometric mean 1.0825 x the best, within 5 % at 1, worst 1.125" in text


def test_sass_same_pairs_renamed_functions_and_names_the_first_difference(tmp_path):
    old = tmp_path / "old.sass"
    old.write_text(_SASS)
    new = tmp_path / "new.sass"
    # before renamed (a template parameter added, say), after with one instruction changed.
    new.write_text(_SASS.replace("_Z6beforev", "_Z7before2v").replace("gdesc[UR28], R24", "gdesc[UR29], R24"))
    tool = [sys.executable, os.path.join(REPO_ROOT, "tools", "sass_same.py"), str(old), str(new)]
    out = subprocess.run(tool + ["--rename", "_Z6beforev=_Z7before2v"], capture_output=True, text=True)
    assert out.returncode == 1
    lines = out.stdout.splitlines()
    assert len(lines) == 2 and lines[0].endswith("identical (8 instructions)")
    assert "1 of 4 instructions differ; first at 3" in lines[1] and "UR28" in lines[1] and "UR29" in lines[1]
    out = subprocess.run(tool + ["--match", "before", "--rename", "_Z6beforev=_Z7before2v"], capture_output=True, text=True)
    assert out.returncode == 0 and "identical" in out.stdout
    out = subprocess.run(tool + ["--match", "before"], capture_output=True, text=True)
    assert out.returncode == 1 and "not in" in out.stdout
