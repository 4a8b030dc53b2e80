#!/usr/bin/env bash
# s23 call 14: the narrow pulled sum (8-32 tokens) with its quad walk worked out before the cluster barrier
# too (N = 9d8f27d + QuadWalk in the narrow reduce_store; ptxas: no spills, the 32-token instance at
# 96 registers as before), against W = 9d8f27d (build-dev), interleaved; N's GPU tests.
set -u
rm -rf build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
timeout 60 build-var/N/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu_tests N rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
ARGS=""
for s in 2112,7168 4096,7168 576,7168 1536,7168 7168,2048 12288,7168 24576,1536; do ARGS="$ARGS --shape $s"; done
OUT=$R bash tools/binary_ab.sh N build-var/N/blockfp8-bench build-var/W/blockfp8-bench $ARGS \
  --m 8,16,24,32 --no-floor --no-cublaslt > /dev/null 2>&1
echo "ab N rc=$?" >> $S
cat $S $R/N_ab.md
gzip -9 -n $R/gpu_tests.log
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
