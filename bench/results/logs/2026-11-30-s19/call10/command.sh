#!/usr/bin/env bash
# s19 call 10: the tail token boxes (build-dev/COMMIT; kernels as call 8's c31ada4): the fuzzer (random
# shapes, layouts and forced configurations, 64- and 128-token tiles at any M among them) and the
# Python tests through the device's torch.
set -u
rm -rf build-dev && tar -xJf build-carry/dev.tar.xz
FUZZ_SECONDS=200 BUDGET=320 OUT=$OUT bash tools/device_suite.sh build-dev env fuzz python > /dev/null 2>&1
cat $OUT/run/summary.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $OUT/run
