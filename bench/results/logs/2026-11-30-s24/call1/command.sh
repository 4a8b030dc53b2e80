#!/usr/bin/env bash
# s24 call 1. N = the owner's sum spread over the ranks (each rank owns every split-th block of the
# partial tile; 8-32 tokens, any split), O = 30c83c6 (rank-0 owner at 8-16 tokens, split <= 3 with
# 64 rows; pulled sum at 32). GPU tests, sanitizers on the owner test, bitwise O vs N over the DeepSeek
# set, timelines, and the dispatcher's picks N against O interleaved.
set -u
rm -rf build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
T=build-var/N/blockfp8_gpu_tests
timeout 90 $T > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure" $R/gpu_tests.log | head -20 >> $S
timeout 110 python3 tools/bitwise_vs_lib.py build-var/O/libblockfp8.so build-var/N/libblockfp8.so > $R/bitwise.log 2>&1
echo "bitwise O vs N rc=$? $(tail -1 $R/bitwise.log)" >> $S
for spec in "2112 7168 16" "2112 7168 32" "576 7168 32" "4096 7168 32"; do
  set -- $spec
  for v in O N; do
    BLOCKFP8_PDL=0 timeout 25 build-var/$v/decode_timeline $1 $2 $3 > $R/tl_${v}_${1}x${2}_m$3.txt 2>&1
    echo "timeline $v $spec rc=$?" >> $S
  done
done
ARGS=""
for s in 2112,7168 576,7168 1536,7168 4096,7168 4608,7168 3072,1536 7168,2048 24576,1536 12288,7168 6144,7168; do ARGS="$ARGS --shape $s"; done
OUT=$R timeout 280 bash tools/binary_ab.sh A build-var/N/blockfp8-bench build-var/O/blockfp8-bench $ARGS \
  --m 8,16,24,32 --no-floor --no-cublaslt > /dev/null 2>&1
echo "ab rc=$?" >> $S
for tool in memcheck racecheck; do
  timeout 70 compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter='ReliabilityTest.OwnersSumIsBitwiseThePulledSum' \
    > $R/sanitizer_$tool.log 2>&1
  echo "sanitizer $tool (OwnersSum) rc=$? $(grep -m1 'ERROR SUMMARY' $R/sanitizer_$tool.log)" >> $S
done
cat $S
for f in $R/tl_*_m*.txt; do echo "== $f"; sed -n '1,10p' $f; done
cat $R/A_ab.md
gzip -9 -n $R/gpu_tests.log $R/sanitizer_*.log 2>/dev/null
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
