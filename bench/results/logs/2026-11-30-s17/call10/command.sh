#!/usr/bin/env bash
# s17 call 10: the final tree (call 5's suite at 376063e: row-major scales by 16-byte loads, GemmTest's few-element normalisation): GPU,
# unit and API tests, the whole DeepSeek benchmark (settled, row-major a_scales as before) with plots,
# the quantiser, the fuzzer for 30 s, memcheck of the tiled tests. (Python tests: call 6, at cd98b30.)
set -u
BUDGET=${BUDGET:-560} OUT=$OUT bash tools/device_suite.sh build-dev env tests > /dev/null 2>&1
R=$OUT/run
B=build-dev/bench/blockfp8-bench
export BLOCKFP8_COMMIT=$(cat build-dev/COMMIT)
t0=$SECONDS
timeout 330 $B --commit $BLOCKFP8_COMMIT --json $R/bench.jsonl > $R/bench.log 2>&1; echo "bench rc=$? $((SECONDS - t0)) s" >> $R/summary.txt
cp $R/bench.log $R/bench.md
timeout 60 $B --quant --commit $BLOCKFP8_COMMIT --json $R/bench_quant.jsonl > $R/bench_quant.log 2>&1; echo "quant rc=$? $(tail -n 1 $R/bench_quant.log)" >> $R/summary.txt
timeout 90 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --json bench.jsonl" > $R/plot.log 2>&1; echo "plot rc=$?" >> $R/summary.txt
timeout 60 build-dev/tests/blockfp8_fuzz --cases 2000 --max-seconds 30 > $R/fuzz.log 2>&1; echo "fuzz rc=$? $(tail -n 1 $R/fuzz.log)" >> $R/summary.txt
BLOCKFP8_TEST_TIMEOUT=50 timeout 55 compute-sanitizer --tool memcheck --error-exitcode 99 build-dev/tests/blockfp8_gpu_tests --gtest_filter='TiledTest.*' > $R/memcheck_tiled.log 2>&1; echo "memcheck tiled rc=$? $(tail -n 1 $R/memcheck_tiled.log)" >> $R/summary.txt
cat $R/summary.txt
tar -C $OUT -czf $OUT/device-run.tgz run
