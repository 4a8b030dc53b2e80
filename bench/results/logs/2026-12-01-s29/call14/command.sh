#!/usr/bin/env bash
# s29 call 14. The fuzzer (random shapes, strides, dtypes and scale layouts against the SIMT reference) on
# 2ec8aa6: the dispatcher's new ring depths and plans, last fuzzed at 100dbde (twenty-fifth session).
set -u
tar -xJf build-carry/s29c13.tar.xz
FUZZ_SECONDS=180 BUDGET=230 OUT=$OUT bash tools/device_suite.sh build-fin2 env fuzz > /dev/null 2>&1
cat $OUT/run/summary.txt; tail -n 5 $OUT/run/fuzz.log
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $OUT/run $OUT/device-run.tgz
