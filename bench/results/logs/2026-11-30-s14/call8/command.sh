#!/usr/bin/env bash
# s14 call 8: the final tree (the warp-MMA fused rule bounded per SM): GPU tests, fused tests under
# memcheck, and the benchmark on every DeepSeek shape (latest.jsonl) with the quantiser's table.
set -u
R=$OUT/run; mkdir -p $R
B=build-dev
timeout 120 $B/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1; echo "gpu_tests rc=$? $(tail -1 $R/gpu_tests.log)"; grep "fused    \]" $R/gpu_tests.log
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/blockfp8_gpu_tests --gtest_filter='Fused*' > $R/memcheck.log 2>&1; echo "memcheck rc=$? $(tail -1 $R/memcheck.log)"
timeout 200 $B/bench/blockfp8-bench --commit $(cat $B/COMMIT) --json $R/bench.jsonl > $R/bench.log 2>&1; echo "bench rc=$? $(tail -1 $R/bench.log)"
timeout 60 $B/bench/blockfp8-bench --quant --json $R/bench_quant.jsonl > $R/bench_quant.log 2>&1; echo "quant rc=$?"
timeout 60 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --commit 00743c3 --json bench.jsonl (s14 call 8)" > $R/plot.log 2>&1; echo "plot rc=$?"
