#!/usr/bin/env bash
# s24 call 2. N = 30c83c6 + the tiled kernel's split-K sum made like the decode kernel's wide sum (own
# partial read locally, a loop per C dtype, a quad of C a store where C allows); O = 30c83c6.
# GPU tests, memcheck of the tiled split tests, bitwise O vs N over the DeepSeek set, timelines at
# M = 128, and the dispatcher's picks N against O interleaved at M = 96-256.
set -u
rm -rf build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
T=build-var/N/blockfp8_gpu_tests
timeout 90 $T > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure" $R/gpu_tests.log | head -20 >> $S
timeout 110 python3 tools/bitwise_vs_lib.py build-var/O/libblockfp8.so build-var/N/libblockfp8.so > $R/bitwise.log 2>&1
echo "bitwise O vs N rc=$? $(tail -1 $R/bitwise.log)" >> $S
for spec in "2112 7168 128" "4096 7168 256" "7168 16384 128"; do
  set -- $spec
  for v in O N; do
    BLOCKFP8_PDL=0 timeout 25 build-var/$v/decode_timeline $1 $2 $3 > $R/tl_${v}_${1}x${2}_m$3.txt 2>&1
    echo "timeline $v $spec rc=$?" >> $S
  done
done
ARGS=""
for s in 2112,7168 1536,7168 3072,7168 4096,7168 4608,7168 6144,7168 7168,16384 9216,7168; do ARGS="$ARGS --shape $s"; done
OUT=$R timeout 300 bash tools/binary_ab.sh A build-var/N/blockfp8-bench build-var/O/blockfp8-bench $ARGS \
  --m 96,128,192,256 --no-floor --no-cublaslt > /dev/null 2>&1
echo "ab rc=$?" >> $S
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 3 $T --gtest_filter='TiledTest.SplitK*:TiledTest.Padding' \
  > $R/sanitizer_memcheck.log 2>&1
echo "sanitizer memcheck (TiledTest.SplitK*, Padding) rc=$? $(grep -m1 'ERROR SUMMARY' $R/sanitizer_memcheck.log)" >> $S
cat $S
for f in $R/tl_*_m*.txt; do echo "== $f"; sed -n '1,12p' $f; done
cat $R/A_ab.md
gzip -9 -n $R/gpu_tests.log $R/sanitizer_*.log 2>/dev/null
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
