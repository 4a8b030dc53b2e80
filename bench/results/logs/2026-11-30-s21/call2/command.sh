#!/usr/bin/env bash
# s21 call 2 (91b9581): with a full barrier per alternating warpgroup, the const-weights early stream
# compiled in (BLOCKFP8_CONST_WEIGHTS_PREFETCH): GPU tests of it (cw) and with the early release (cwe);
# the fault loop again (cw, cwe, 329b33a as control); the flag's time against the default's on the
# DeepSeek set (bench --constw, cw); early release (cwe) against cw interleaved at 32-96 tokens;
# timelines of 7168x16384 at M = 32 and 64 (PDL off).
set -u
rm -rf build-dev build-dev-x && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
X=build-dev-x
for n in cw cwe; do
  BLOCKFP8_TEST_TIMEOUT=30 timeout 60 $X/$n/blockfp8_gpu_tests > $R/gpu_tests_$n.log 2>&1
  echo "gpu_tests $n rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests_$n.log | head -3 | tr '\n' ' ')" >> $S
done
for m in 32 64; do
  BLOCKFP8_PDL=0 timeout 30 $X/tl/decode_timeline 7168 16384 $m > $R/tl_m$m.txt 2>&1
  echo "timeline m=$m rc=$?" >> $S
done
SHAPES=""
for s in 7168,16384 7168,9216 12288,7168 36864,7168 4096,7168 2112,7168 576,7168; do SHAPES="$SHAPES --shape $s"; done
t0=$SECONDS; OUT=$R timeout 100 bash tools/binary_ab.sh early $X/cwe/blockfp8-bench $X/cw/blockfp8-bench \
  $SHAPES --m 32,48,64,96 --no-cublaslt > $R/ab_early.log 2>&1; echo "ab early rc=$? $((SECONDS - t0)) s" >> $S
t0=$SECONDS; timeout 150 $X/cw/blockfp8-bench --m 1,8,16,32,64,128 --constw --no-cublaslt --no-bf16a \
  --json $R/constw.jsonl > $R/constw_bench.log 2>&1; echo "constw bench rc=$? $((SECONDS - t0)) s" >> $S
OUT=$R/loop SECONDS_BUDGET=170 timeout 200 bash tools/constw_fault_loop.sh $X/cw $X/cwe $X/base > $R/loop.log 2>&1
echo "fault loop rc=$? $(cat $R/loop/fault_summary.txt 2>/dev/null | tr '\n' ' ')" >> $S
cat $S
for f in $R/*.log $R/*.jsonl; do [ $(stat -c %s $f) -gt 20000 ] && gzip -9 -n $f; done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
