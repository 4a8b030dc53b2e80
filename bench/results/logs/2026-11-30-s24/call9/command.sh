#!/usr/bin/env bash
# s24 call 9. As call 8, with the shift of the last token tile (tile_origin, stores_token) compiled into
# the 64- and 128-token instances only: the other 19 decode functions are machine-code identical to
# 65c409b (tools/kernel_text_hashes.sh). N = that + swapab_two_tile_split; O = 65c409b. GPU tests,
# outputs bitwise O vs N (M outside 65-128, where N changes 2112x7168's plan), and interleaved A/Bs:
# 2112x7168 at M = 72-128 (the new plan against the tiled one) and the 64/128-token picks at M = 40-256.
set -u
rm -rf build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
T=build-var/N/blockfp8_gpu_tests
timeout 90 $T > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure" $R/gpu_tests.log | head -20 >> $S
timeout 100 python3 tools/bitwise_vs_lib.py build-var/O/libblockfp8.so build-var/N/libblockfp8.so \
  --m 1,2,4,8,12,16,24,32,40,48,56,64,192,256 > $R/bitwise.log 2>&1
echo "bitwise O vs N rc=$? $(tail -1 $R/bitwise.log)" >> $S
OUT=$R timeout 150 bash tools/binary_ab.sh P build-var/N/blockfp8-bench build-var/O/blockfp8-bench --shape 2112,7168 \
  --m 72,96,112,120,128 --no-floor --no-cublaslt > /dev/null 2>&1
echo "ab P rc=$?" >> $S
ARGS=""
for s in 2112,7168 576,7168 4096,7168 7168,2048 3072,1536 7168,16384; do ARGS="$ARGS --shape $s"; done
OUT=$R timeout 200 bash tools/binary_ab.sh D build-var/N/blockfp8-bench build-var/O/blockfp8-bench $ARGS \
  --m 40,48,64,192,256 --no-floor --no-cublaslt > /dev/null 2>&1
echo "ab D rc=$?" >> $S
cat $S
cat $R/P_ab.md $R/D_ab.md
gzip -9 -n $R/gpu_tests.log 2>/dev/null
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
