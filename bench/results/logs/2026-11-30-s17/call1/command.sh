#!/usr/bin/env bash
# s17 call 1: (1) main's GPU tests at d3dd3b2 (the MathPos review mend, not yet run on a GPU);
# (2) the k-block slopes of wip/tiled-loo switches 0 (main's scale copies), 12 (copies kept, math
# multiplies by constants), 13 (only the b_scales copied, constant a_scales stored) and 14 (only the
# a_scales copied): which copy stream makes the math warps' reads cost ~200 cycles a k-block;
# (3) wip/tiled-kbtrace: clock64 per k-block of CTA 0 (TMA issue, scale issue, math's full-wait
# start/end, wgmma done) for loo 0 and loo 11 (the scale warp stores constants: fast), 2112x16384
# M = 256 (one tile an SM) and 2112x7168 M = 4096 (its first tile).
set -u
R=$OUT/r; mkdir -p $R
X=build-dev-x
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader > $R/env.log
BLOCKFP8_TEST_TIMEOUT=50 timeout 90 $X/main/blockfp8_gpu_tests > $R/gpu_tests_main.log 2>&1; echo "gpu tests main rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests_main.log | tr '\n' ' ')"
OUT=$R/slope bash tools/tiled_slope_ab.sh main:$X/loo0/blockfp8-bench b_only:$X/loo13/blockfp8-bench \
  a_only:$X/loo14/blockfp8-bench const_math:$X/loo12/blockfp8-bench
COMMON="--no-cublaslt --no-floor --no-check --no-bf16a --no-constw --replays 10"
for v in kbt0 kbt11; do
  timeout 60 $X/$v/blockfp8-bench --shape 2112,16384 --m 256 --config tiled_t128_r192_p0_c1x1 $COMMON > $R/${v}_slope.log 2>&1; echo "$v slope rc=$? $(grep -c ^KBT $R/${v}_slope.log)"
  timeout 60 $X/$v/blockfp8-bench --shape 2112,7168 --m 4096 --config tiled_t128_r192_p0_c1x1 $COMMON > $R/${v}_big.log 2>&1; echo "$v big rc=$? $(grep -c ^KBT $R/${v}_big.log)"
done
tar -C $OUT -czf $OUT/call1.tgz r; rm -rf $R
