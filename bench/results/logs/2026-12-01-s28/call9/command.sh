#!/usr/bin/env bash
# s28 call 9. Validation at 17afd6f (the quantiser's hoisted addresses, one-k-block stages where call 7 measured
# them faster): tools/device_suite.sh steps env, tests, python and sanitizer (its default smokes: the decode,
# warp-MMA, fused and quantiser kernels under memcheck, racecheck and synccheck).
set -u
rm -rf build-fin && tar -xJf build-carry/s28c9.tar.xz
BUDGET=400 OUT=$OUT bash tools/device_suite.sh build-fin env tests python sanitizer > /dev/null 2>&1
cat $OUT/run/summary.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $OUT/run $OUT/device-run.tgz
