#!/usr/bin/env bash
# s23 call 5 (build-dev = C: fe8cc31 + 64-token warpgroups with the tokens on wgmma's M side + the wide
# pulled sum at 64/128 tokens: no division a quad, the own partial from its own shared memory, four ranks'
# loads in flight, a loop per C dtype, a quad of C a store; 8-32 tokens unchanged). build-var/old =
# fe8cc31, build-var/A = call 4's A (the same without the dtype loops and the division-free walk).
# The device suite; memcheck/racecheck/synccheck over SanitizerSmoke, memcheck over GemmTest.Padding (the
# wide sum's element stores on misaligned C); C's outputs bitwise against old; timelines; C against A
# and against old, interleaved.
set -u
rm -rf build-dev build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R
FUZZ_SECONDS=40 BUDGET=200 OUT=$OUT bash tools/device_suite.sh build-dev env tests fuzz python > /dev/null 2>&1
S=$R/summary.txt
T=build-dev/tests/blockfp8_gpu_tests
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter='ReliabilityTest.SanitizerSmoke' \
    > $R/sanitizer_$tool.log 2>&1
  echo "sanitizer $tool (SanitizerSmoke) rc=$? $(grep -m1 'ERROR SUMMARY' $R/sanitizer_$tool.log)" >> $S
done
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 3 $T --gtest_filter='GemmTest.Padding' > $R/sanitizer_padding.log 2>&1
echo "sanitizer memcheck (GemmTest.Padding) rc=$? $(grep -m1 'ERROR SUMMARY' $R/sanitizer_padding.log)" >> $S
timeout 200 python3 tools/bitwise_vs_lib.py build-var/old/libblockfp8.so build-dev/libblockfp8.so > $R/bitwise.log 2>&1
echo "bitwise old vs C rc=$? $(tail -1 $R/bitwise.log)" >> $S
for spec in "7168 16384 64" "2112 7168 64"; do
  set -- $spec
  for v in old C; do
    B=build-var/old/decode_timeline; [ $v = C ] && B=build-dev/bench/decode_timeline
    BLOCKFP8_PDL=0 timeout 60 $B $1 $2 $3 > $R/tl_${v}_${1}x${2}_m$3.txt 2>&1
  done
done
ARGS=""
for s in 2112,7168 4096,7168 7168,16384 576,7168 7168,2048 24576,1536 3072,1536 1536,7168 4608,7168 7168,4608; do
  ARGS="$ARGS --shape $s"; done
OUT=$R bash tools/binary_ab.sh CvsA build-dev/bench/blockfp8-bench build-var/A/blockfp8-bench $ARGS \
  --m 40,64,96 --no-floor --no-cublaslt > /dev/null 2>&1
OUT=$R bash tools/binary_ab.sh Cvsold build-dev/bench/blockfp8-bench build-var/old/blockfp8-bench $ARGS \
  --m 40,48,64,96,128 --no-floor --no-cublaslt > /dev/null 2>&1
cat $S
for f in $R/tl_*_m*.txt; do echo "== $f"; sed -n '1p;7,10p' $f; done
cat $R/CvsA_ab.md $R/Cvsold_ab.md
for f in $R/*.log $R/*.txt $R/*.jsonl; do [ -f $f ] && [ $(stat -c %s $f) -gt 30000 ] && gzip -9 -n $f; done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
