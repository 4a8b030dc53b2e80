#!/usr/bin/env bash
# s17 call 9: row-major scales by 16-byte loads of four k-blocks (5c515fe, produce_scales_rows).
# (1) GPU tests, unit and API; the fuzzer 30 s; memcheck of TiledTest. (2) The k-block slope and
# M = 4096: cd98b30 (main before, four-byte copies), the new build, and the new build with
# BLOCKFP8_TILED_SCALE_ROWS=0 (copies, producers at 56 registers). (3) The switch on/off at M = 256-4096
# on four shapes (row-major scales, the benchmark's default).
set -u
R=$OUT/run; mkdir -p $R
BUDGET=120 OUT=$OUT bash tools/device_suite.sh build-dev env tests > /dev/null 2>&1
timeout 45 build-dev/tests/blockfp8_fuzz --cases 2000 --max-seconds 30 > $R/fuzz.log 2>&1; echo "fuzz rc=$? $(tail -n 1 $R/fuzz.log)" >> $R/summary.txt
BLOCKFP8_TEST_TIMEOUT=50 timeout 70 compute-sanitizer --tool memcheck --error-exitcode 99 build-dev/tests/blockfp8_gpu_tests --gtest_filter='TiledTest.*' > $R/memcheck_tiled.log 2>&1; echo "memcheck tiled rc=$? $(tail -n 1 $R/memcheck_tiled.log)" >> $R/summary.txt
OUT=$R/slope bash tools/tiled_slope_ab.sh cd98b30:build-dev-x/main/blockfp8-bench rows:build-dev/bench/blockfp8-bench \
  rows_off:build-dev-x/main/rows_off.sh > $R/slope.log 2>&1; echo "slope rc=$?" >> $R/summary.txt
OUT=$R/ab bash tools/env_ab.sh build-dev BLOCKFP8_TILED_SCALE_ROWS --shape 2112,7168 --shape 4096,7168 \
  --shape 7168,2048 --shape 24576,7168 --m 256,1024,4096 --no-cublaslt --no-floor > $R/ab.log 2>&1; echo "ab rc=$?" >> $R/summary.txt
cat $R/summary.txt; cat $R/slope.log; cat $R/ab/*_ab.md
tar -C $OUT -czf $OUT/device-run.tgz run
