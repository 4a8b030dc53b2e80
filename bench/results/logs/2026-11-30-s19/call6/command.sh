#!/usr/bin/env bash
# s19 call 6: the tail token boxes (64- and 128-token tiles load M rows, not TN) at the commit in
# build-dev/COMMIT: GPU, unit and API tests; memcheck, racecheck and synccheck of the sanitizer set
# (SanitizerSmoke has a 64-token tile at M = 40 and a split-token 128-token tile at M = 70); then the
# dispatcher's choice against c5f3caf (full boxes), interleaved twice, at M = 33-128 on nine weights.
set -u
rm -rf build-dev build-dev-x && tar -xJf build-carry/dev.tar.xz
BUDGET=330 OUT=$OUT bash tools/device_suite.sh build-dev env tests sanitizer > /dev/null 2>&1
R=$OUT/run
SHAPES=""
for s in 2112,7168 1536,7168 576,7168 4096,7168 7168,16384 6144,1536 3072,1536 4096,512 7168,2048; do SHAPES="$SHAPES --shape $s"; done
OUT=$R timeout 250 bash tools/binary_ab.sh tailbox build-dev/bench/blockfp8-bench build-dev-x/main/blockfp8-bench \
  $SHAPES --m 33,40,48,56,63,64,96,100,120,128 --no-cublaslt > $R/ab.log 2>&1
cat $R/summary.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
