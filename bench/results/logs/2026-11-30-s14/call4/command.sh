#!/usr/bin/env bash
# s14 call 4: the warp-MMA dispatch rules (few strips: K split over a cluster; many strips of 32 at
# M <= 4) against a19b79b, interleaved twice, on every DeepSeek shape at M = 1-8; then the GPU tests
# of the new build (the fused path now also runs the split warp-MMA kernel on 576x7168).
set -u
R=/tmp/r4; rm -rf $R; mkdir -p $R
B=build-dev
OUT=$R bash tools/binary_ab.sh rules $B/bench/blockfp8-bench $B/old/blockfp8-bench --m 1,2,3,4,5,8 --no-cublaslt --no-floor > /dev/null
cat $R/rules_ab.md
timeout 200 $B/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1; echo "gpu_tests rc=$?"; tail -3 $R/gpu_tests.log
tar czf $OUT/r4.tgz -C /tmp r4
