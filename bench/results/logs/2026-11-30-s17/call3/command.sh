#!/usr/bin/env bash
# s17 call 3. Calls 1-2's loo13-16 (and s16's loo9-12) were consumer-alone kernels: wip/tiled-loo set
# kAlone for every switch >= 5 (no producers, no mbarriers), so their ~940 cycles a k-block at 192
# rows were the consumer-alone figure, not what their names said. Rebuilt with the flag for 5-8 only
# (SASS checked: LDGSTS / UTMALDG / SYNCS present as each switch says). Slopes and M = 4096:
# main (loo0); loo9 no operand loads and no scale copies (barriers only); loo10 loads, no scale
# copies; loo11 loads, constants stored by the scale warp; loo12 main's copies, math multiplies by
# constants; loo16 the b_scales by a warp of their own; the column-major a_scale branch (cm_tma:
# a_scales by TMA; cm_copy: the same layout by the scale warp's cp.async).
set -u
R=$OUT/r; mkdir -p $R
X=build-dev-x
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader > $R/env.log
OUT=$R/slope bash tools/tiled_slope_ab.sh main:$X/loo0/blockfp8-bench no_loads_no_copies:$X/loo9/blockfp8-bench \
  no_copies:$X/loo10/blockfp8-bench const_stores:$X/loo11/blockfp8-bench const_math:$X/loo12/blockfp8-bench \
  b_warp:$X/loo16/blockfp8-bench cm_tma:$X/cm/on.sh cm_copy:$X/cm/off.sh
tar -C $OUT -czf $OUT/call3.tgz r; rm -rf $R
