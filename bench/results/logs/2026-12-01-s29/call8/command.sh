#!/usr/bin/env bash
# s29 call 8. Validation at 72cfd29 (the dispatcher's rings within 96 KB of weight an SM over short streams,
# full rings where paired ones would split short slices thinner; no kernel code changed this session):
# tools/device_suite.sh steps env, tests, python and sanitizer (its default smokes: the decode, warp-MMA,
# fused and quantiser kernels under memcheck, racecheck and synccheck).
set -u
rm -rf build-fin && tar -xJf build-carry/s29c8.tar.xz
BUDGET=420 OUT=$OUT bash tools/device_suite.sh build-fin env tests python sanitizer > /dev/null 2>&1
cat $OUT/run/summary.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $OUT/run $OUT/device-run.tgz
