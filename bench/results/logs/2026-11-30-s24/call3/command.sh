#!/usr/bin/env bash
# s24 call 3. N = 30c83c6 + the tiled split-K sum per dtype (own partial local, quad stores), the
# per-split loops kept (call 2's one loop over eight predicated ranks spilled 232 bytes in the 192-row
# split kernel: 1.6x slower on 7168x16384 at M = 96-128); O = 30c83c6. GPU tests, memcheck of the
# tiled split tests, bitwise O vs N, timelines with the tiled kernel's new set-up marks, the A/B at
# mid M, and the tiled kernel's SASS (cuobjdump, if the device has it) for reading here.
set -u
rm -rf build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
T=build-var/N/blockfp8_gpu_tests
timeout 90 $T > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure" $R/gpu_tests.log | head -20 >> $S
timeout 110 python3 tools/bitwise_vs_lib.py build-var/O/libblockfp8.so build-var/N/libblockfp8.so > $R/bitwise.log 2>&1
echo "bitwise O vs N rc=$? $(tail -1 $R/bitwise.log)" >> $S
for spec in "2112 7168 128" "4096 7168 256" "2112 7168 4096" "7168 16384 128"; do
  set -- $spec
  BLOCKFP8_PDL=0 timeout 25 build-var/N/decode_timeline $1 $2 $3 > $R/tl_N_${1}x${2}_m$3.txt 2>&1
  echo "timeline N $spec rc=$?" >> $S
done
ARGS=""
for s in 2112,7168 1536,7168 3072,7168 4096,7168 4608,7168 6144,7168 7168,16384 9216,7168 7168,9216; do ARGS="$ARGS --shape $s"; done
OUT=$R timeout 300 bash tools/binary_ab.sh A build-var/N/blockfp8-bench build-var/O/blockfp8-bench $ARGS \
  --m 96,128,192,256 --no-floor --no-cublaslt > /dev/null 2>&1
echo "ab rc=$?" >> $S
OUT=$R timeout 100 bash tools/binary_ab.sh B build-var/N/blockfp8-bench build-var/O/blockfp8-bench --shape 576,7168 \
  --shape 1536,7168 --m 512,1024,2048 --no-floor --no-cublaslt > /dev/null 2>&1
echo "ab B rc=$?" >> $S
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 3 $T --gtest_filter='TiledTest.SplitK*:TiledTest.Padding' \
  > $R/sanitizer_memcheck.log 2>&1
echo "sanitizer memcheck (TiledTest.SplitK*, Padding) rc=$? $(grep -m1 'ERROR SUMMARY' $R/sanitizer_memcheck.log)" >> $S
CO=$(ls /usr/local/cuda/bin/cuobjdump 2>/dev/null || which cuobjdump 2>/dev/null)
echo "cuobjdump: $CO $(ls /usr/local/cuda/bin | tr '\n' ' ')" >> $S
if [ -n "$CO" ]; then
  timeout 60 $CO -sass build-var/N/libblockfp8.so > $R/sass_all.txt 2>&1
  echo "sass rc=$? $(wc -l < $R/sass_all.txt)" >> $S
  xz -T4 -6 $R/sass_all.txt
fi
cat $S
for f in $R/tl_*_m*.txt; do echo "== $f"; sed -n '1,20p' $f; done
cat $R/A_ab.md $R/B_ab.md
gzip -9 -n $R/gpu_tests.log $R/sanitizer_*.log 2>/dev/null
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
