#!/usr/bin/env bash
# s28 call 7. build-kb1 = 375fff6 + one-k-block stages for 64-row 32-token tiles over slices up to 28
# k-blocks and 56-row 16-token tiles (call 6); build-head = 375fff6. The dispatcher's backend at the
# points whose pick changed, interleaved twice each (tools/binary_ab.sh); the GPU tests on build-kb1.
set -u
rm -rf build-kb1 build-head && tar -xJf build-carry/s28c7.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
timeout 150 build-kb1/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
OUT=$R bash tools/binary_ab.sh t32 build-kb1/bench/blockfp8-bench build-head/bench/blockfp8-bench \
  --shape 2112,7168 --shape 4096,7168 --shape 7168,2048 --shape 7168,2304 --m 17,24,32 --no-cublaslt >> $S 2>&1
OUT=$R bash tools/binary_ab.sh t16 build-kb1/bench/blockfp8-bench build-head/bench/blockfp8-bench \
  --shape 7168,4096 --shape 7168,4608 --shape 7168,8192 --shape 7168,9216 --shape 7168,16384 --shape 7168,18432 \
  --m 9,12,16 --no-cublaslt >> $S 2>&1
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
