#!/usr/bin/env bash
# s21 call 1: a full barrier per warpgroup where two alternate stages (kAlternate; ring position
# parity picks the warpgroup), on 329b33a. GPU tests of it (fix) and of it with the early release
# (early); outputs bitwise against 329b33a's library on the DeepSeek set; the const-weights fault
# loop with the early weight stream compiled in (BLOCKFP8_CONST_WEIGHTS_PREFETCH) on fix (cw),
# fix + early (cwe) and 329b33a (base: its kConstWeightsPrefetch set true; inert without --constw);
# interleaved A/B fix vs base and early (cwe) vs fix (cw); synccheck/racecheck.
set -u
rm -rf build-dev build-dev-x && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
X=build-dev-x
cuobjdump -sass build-dev/libblockfp8.so > /tmp/sass.txt
echo "fix SASS: LDL/STL $(grep -cE '\b(LDL|STL)\b' /tmp/sass.txt), QGMMA $(grep -c QGMMA /tmp/sass.txt)" >> $S
for v in fix:build-dev/tests early:$X/early; do
  n=${v%%:*}; d=${v#*:}
  BLOCKFP8_TEST_TIMEOUT=30 timeout 60 $d/blockfp8_gpu_tests > $R/gpu_tests_$n.log 2>&1
  echo "gpu_tests $n rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests_$n.log | head -3 | tr '\n' ' ')" >> $S
done
t0=$SECONDS; timeout 120 python3 tools/bitwise_vs_lib.py $X/oldlib/libblockfp8.so build-dev/libblockfp8.so > $R/bitwise.log 2>&1
echo "bitwise rc=$? $((SECONDS - t0)) s: $(tail -1 $R/bitwise.log)" >> $S
SHAPES=""
for s in 7168,16384 7168,9216 12288,7168 36864,7168 4096,7168 2112,7168 576,7168; do SHAPES="$SHAPES --shape $s"; done
t0=$SECONDS; OUT=$R timeout 90 bash tools/binary_ab.sh fix build-dev/bench/blockfp8-bench $X/base/blockfp8-bench \
  $SHAPES --m 1,8,16,32,64 --no-cublaslt > $R/ab_fix.log 2>&1; echo "ab fix rc=$? $((SECONDS - t0)) s" >> $S
t0=$SECONDS; OUT=$R timeout 90 bash tools/binary_ab.sh early $X/cwe/blockfp8-bench $X/cw/blockfp8-bench \
  $SHAPES --m 1,8,16,32,64 --no-cublaslt > $R/ab_early.log 2>&1; echo "ab early rc=$? $((SECONDS - t0)) s" >> $S
OUT=$R/constw SECONDS_BUDGET=110 timeout 150 bash tools/constw_fault_loop.sh $X/cw $X/cwe $X/base > $R/constw.log 2>&1
echo "constw rc=$? $(cat $R/constw/fault_summary.txt 2>/dev/null | tr '\n' ' ')" >> $S
for v in fix:build-dev/tests early:$X/early; do
  n=${v%%:*}; d=${v#*:}
  BLOCKFP8_TEST_TIMEOUT=40 timeout 45 compute-sanitizer --tool synccheck --error-exitcode 99 $d/blockfp8_gpu_tests \
    --gtest_filter='ReliabilityTest.SanitizerSmoke:GemmTest.ForcedSwapabConfigs' > $R/synccheck_$n.log 2>&1
  echo "synccheck $n rc=$? $(tail -1 $R/synccheck_$n.log)" >> $S
done
BLOCKFP8_TEST_TIMEOUT=70 timeout 75 compute-sanitizer --tool racecheck --error-exitcode 99 build-dev/tests/blockfp8_gpu_tests \
  --gtest_filter='ReliabilityTest.SanitizerSmoke' > $R/racecheck_fix.log 2>&1
echo "racecheck fix rc=$? $(tail -1 $R/racecheck_fix.log)" >> $S
cat $S
for f in $R/*.log; do [ $(stat -c %s $f) -gt 20000 ] && gzip -9 -n $f; done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
