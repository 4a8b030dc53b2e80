"""CPU tests of bench/plot.py's dispatcher summary: where the dispatcher changes kernel family along M,
and how its choice compares with the best forced path measured at the same point."""
import importlib.util
import os

from conftest import REPO_ROOT


def _plot():
    spec = importlib.util.spec_from_file_location("bench_plot", os.path.join(REPO_ROOT, "bench", "plot.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _row(backend, m, us, config):
    return {"backend": backend, "shape": "s", "N": 2112, "K": 7168, "M": m, "cold_us": us, "config": config}


def test_dispatch_lines_name_the_crossover_and_rank_against_forced_paths():
    plot = _plot()
    rows = [
        _row("blockfp8", 1, 10.0, "swapab_r64_t8_s3_w2_k1_p24"),
        _row("blockfp8:swapab_r64_t8_s2_w0_k2_p0", 1, 9.0, "swapab_r64_t8_s2_w0_k2_p0"),  # 1.11: outside 5 %
        _row("blockfp8", 128, 20.0, "swapab_r64_t128_s3_w1_k1_p5"),
        _row("blockfp8:swapab_r64_t128_s3_w0_k2_p0", 128, 19.5, "swapab_r64_t128_s3_w0_k2_p0"),  # 1.026
        _row("blockfp8", 256, 30.0, "tiled_t128_r64_p8"),
        _row("blockfp8:tiled_t128_r96_p0", 256, 31.0, "tiled_t128_r96_p0"),  # the dispatcher is best: 0.97
    ]
    text = "\n".join(plot.dispatch_lines(plot.by_shape(rows)))
    assert "decode to tiled between M = 128 and 256" in text
    assert "Within 5 % of the best forced path at 2 of 3 points" in text
    worst = [line for line in text.splitlines() if line.startswith("| s 2112×7168 |")][0]
    assert "| 1 |" in worst and worst.endswith("| 1.111 |")


def test_dispatch_lines_are_empty_without_forced_paths_or_a_change_of_kernel():
    plot = _plot()
    rows = [_row("blockfp8", m, 10.0 + m, "swapab_r64_t8_s3_w2_k1_p24") for m in (1, 2, 4)]
    assert plot.dispatch_lines(plot.by_shape(rows)) == []
