#!/usr/bin/env bash
# s14 call 7: the suite at 6fd826d (the many-strip rule up to M = 8 at K <= 1536) without racecheck,
# whose kernels are unchanged since call 5 (1be066f, clean): tests, the benchmark on every DeepSeek
# shape (latest.jsonl), paths, quantiser, pytest, the fuzzer; then memcheck and synccheck of the
# fused and GEMM tests.
set -u
BUDGET=420 OUT=$OUT bash tools/device_suite.sh build-dev env tests bench python fuzz
for tool in memcheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 build-dev/tests/blockfp8_gpu_tests --gtest_filter='Fused*:Gemm*' > $OUT/run/sanitizer_$tool.log 2>&1
  echo "sanitizer_$tool rc=$? $(tail -1 $OUT/run/sanitizer_$tool.log)" | tee -a $OUT/run/summary.txt
done
tar czf $OUT/device-run2.tgz -C $OUT run
