#!/usr/bin/env bash
# s26 call 2. new = b1a8288 + the math warpgroup index read from lane 0 (__shfl_sync) in the tiled kernel's
# consume() and in the decode kernel's run(), and the decode kernel's issue() broadcasting the stage slot and
# k-block from lane 0: ptxas then keeps the wgmma descriptors in uniform registers (no R2UR and NOP before
# each wgmma), plus the bench's floor settling first; old = b1a8288.
# GPU tests on new; the tiled k-block slope and M = 4096 (tools/tiled_slope_ab.sh); new against old
# interleaved twice at decode M (8-128) and tiled M (256-4096).
set -u
rm -rf build-new build-old && tar -xJf build-carry/ab.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
timeout 150 build-new/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure" $R/gpu_tests.log | head -20 >> $S
OUT=$R/slope bash tools/tiled_slope_ab.sh old:build-old/blockfp8-bench new:build-new/bench/blockfp8-bench > $R/slope.log 2>&1
cat $R/slope/slope_table.md >> $S
OUT=$R bash tools/binary_ab.sh decode build-new/bench/blockfp8-bench build-old/blockfp8-bench \
  --shape 2112,7168 --shape 576,7168 --shape 1536,7168 --shape 4096,7168 --shape 7168,16384 --shape 3072,1536 \
  --m 8,16,24,32,48,64,96,128 --no-cublaslt --no-floor > /dev/null 2>&1
tail -n +1 $R/decode_ab.md | head -80 >> $S
OUT=$R bash tools/binary_ab.sh tiled build-new/bench/blockfp8-bench build-old/blockfp8-bench \
  --shape 7168,2304 --shape 7168,2048 --shape 4096,7168 --shape 2112,7168 --shape 24576,7168 --shape 7168,16384 \
  --m 256,512,1024,4096 --no-cublaslt --no-floor --settle-ms 100 > /dev/null 2>&1
cat $R/tiled_ab.md >> $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
