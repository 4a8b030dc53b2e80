#!/usr/bin/env bash
# s24 call 4. N = ce7158c + the tiled kernel's producers working out their first tile before the wait
# for the preceding grid (PDL), each role waiting on its own (the math warps in consume); O = ce7158c.
# GPU tests, memcheck of the tiled tests, bitwise O vs N, timelines with and without PDL, and the
# dispatcher's tiled picks N against O interleaved at M = 96-4096.
set -u
rm -rf build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
T=build-var/N/blockfp8_gpu_tests
timeout 90 $T > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure" $R/gpu_tests.log | head -20 >> $S
timeout 110 python3 tools/bitwise_vs_lib.py build-var/O/libblockfp8.so build-var/N/libblockfp8.so > $R/bitwise.log 2>&1
echo "bitwise O vs N rc=$? $(tail -1 $R/bitwise.log)" >> $S
for spec in "2112 7168 128" "4096 7168 256" "2112 7168 4096"; do
  set -- $spec
  for v in O N; do
    for pdl in 0 1; do
      BLOCKFP8_PDL=$pdl timeout 25 build-var/$v/decode_timeline $1 $2 $3 > $R/tl_${v}_pdl${pdl}_${1}x${2}_m$3.txt 2>&1
      echo "timeline $v pdl=$pdl $spec rc=$?" >> $S
    done
  done
done
ARGS=""
for s in 2112,7168 576,7168 1536,7168 4096,7168 7168,2048 7168,16384 24576,1536 3072,1536 16384,512; do ARGS="$ARGS --shape $s"; done
OUT=$R timeout 330 bash tools/binary_ab.sh A build-var/N/blockfp8-bench build-var/O/blockfp8-bench $ARGS \
  --m 128,256,512,1024,4096 --no-floor --no-cublaslt > /dev/null 2>&1
echo "ab rc=$?" >> $S
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 $T --gtest_filter='TiledTest.SplitK*:TiledTest.Padding:TiledTest.EveryClusterShape' \
  > $R/sanitizer_memcheck.log 2>&1
echo "sanitizer memcheck (TiledTest.SplitK*, Padding, EveryClusterShape) rc=$? $(grep -m1 'ERROR SUMMARY' $R/sanitizer_memcheck.log)" >> $S
cat $S
for f in $R/tl_*.txt; do echo "== $f"; sed -n '1p;3,4p;10,19p' $f | cut -c1-60; done
cat $R/A_ab.md
gzip -9 -n $R/gpu_tests.log $R/sanitizer_*.log 2>/dev/null
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
