#!/usr/bin/env bash
# s17 call 2. Call 1: copying only the a_scales (loo14) or only the b_scales (loo13) is as fast as
# no copies (948 against 1192 cycles a k-block at 192 rows); main copies both. Now:
# (1) loo15 (main's copies, b first) and loo16 (the b_scales copied by a warp of their own);
# (2) wip/tiled-a-scale-colmajor (cm): column-major a_scales by TMA, the scale warp keeps the
#     b_scales: its GPU tests, the fuzzer, memcheck of TiledTest, then its slope with the switch on
#     and off (same binary, --a-scale-col-major) beside main's row-major build (loo0).
set -u
R=$OUT/r; mkdir -p $R
X=build-dev-x
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader > $R/env.log
OUT=$R/slope bash tools/tiled_slope_ab.sh main:$X/loo0/blockfp8-bench b_first:$X/loo15/blockfp8-bench \
  b_warp:$X/loo16/blockfp8-bench cm_tma:$X/cm/on.sh cm_copy:$X/cm/off.sh
BLOCKFP8_TEST_TIMEOUT=50 timeout 90 $X/cm/blockfp8_gpu_tests > $R/gpu_tests_cm.log 2>&1; echo "gpu tests cm rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests_cm.log | tr '\n' ' ')"
BLOCKFP8_TILED_SA_TMA=0 BLOCKFP8_TEST_TIMEOUT=50 timeout 90 $X/cm/blockfp8_gpu_tests --gtest_filter='TiledTest.*:GemmTest.*' > $R/gpu_tests_cm_off.log 2>&1; echo "gpu tests cm SA_TMA=0 rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests_cm_off.log | tr '\n' ' ')"
timeout 40 $X/cm/blockfp8_fuzz --cases 2000 --max-seconds 30 > $R/fuzz_cm.log 2>&1; echo "fuzz cm rc=$? $(tail -n 1 $R/fuzz_cm.log)"
BLOCKFP8_TEST_TIMEOUT=50 timeout 80 compute-sanitizer --tool memcheck --error-exitcode 99 $X/cm/blockfp8_gpu_tests --gtest_filter='TiledTest.*' > $R/memcheck_cm.log 2>&1; echo "memcheck cm rc=$? $(tail -n 1 $R/memcheck_cm.log)"
BLOCKFP8_TEST_TIMEOUT=50 timeout 80 compute-sanitizer --tool racecheck --error-exitcode 99 $X/cm/blockfp8_gpu_tests --gtest_filter='TiledTest.ScaleLayouts:TiledTest.SplitK' > $R/racecheck_cm.log 2>&1; echo "racecheck cm rc=$? $(tail -n 1 $R/racecheck_cm.log)"
tar -C $OUT -czf $OUT/call2.tgz r; rm -rf $R
