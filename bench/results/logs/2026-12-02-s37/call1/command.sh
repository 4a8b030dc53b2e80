#!/usr/bin/env bash
# s37 call 1. c1 = the L2-sum prototype (BLOCKFP8_DECODE_L2SUM=1: the decode kernel's split CTAs are not
# a cluster; partials through a static workspace in L2, the last rank to arrive adds them in rank order).
# (a) Bits: forced decode configurations, switch off and on, same seeds: digests must agree.
# (b) GPU tests with the switch on (not ConcurrentStreams: the prototype's workspace is one per process),
#     memcheck and racecheck on the sanitizer smoke test with it on.
# (c) Forced rows, switch on and off, interleaved twice: split 3 against split 4 (2112x7168), 4 against 5
#     (1536x7168), cold, three shuffled rounds each.
set -u
trap 'tar -C $OUT -czf $OUT/run.tgz run && rm -rf $OUT/run' EXIT
rm -rf c1 && tar -xJf build-carry/s37c1.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c1; B=$N/bench/blockfp8-bench
export BLOCKFP8_LIBRARY=$PWD/$N/libblockfp8.so PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
CASES=""
for c in 2112,7168,5,swapab_r64_t8_s3_w2_k2_p6 2112,7168,16,swapab_r64_t16_s3_w2_k2_p6 2112,7168,16,swapab_r64_t16_s4_w2_k2_p6 \
  2112,7168,24,swapab_r64_t32_s3_w2_k1_p12 2112,7168,32,swapab_r64_t32_s4_w2_k1_p12 2112,7168,64,swapab_r64_t64_s3_w2_k1_p11 \
  2112,7168,100,swapab_r64_t64_s4_w2_k1_p11 7168,2048,16,swapab_r64_t16_s2_w2_k2_p6 7168,2048,40,swapab_r64_t64_s3_w2_k1_p8 \
  1000,7168,13,swapab_r64_t16_s5_w2_k1_p8 1536,7168,32,swapab_r64_t32_s5_w2_k1_p12 576,7168,3,swapab_r64_t8_s8_w2_k1_p6; do
  CASES="$CASES --case $c"; done
for v in 0 1; do BLOCKFP8_DECODE_L2SUM=$v timeout 90 python3 tools/forced_bits.py $R/bits$v.json $CASES > $R/bits$v.log 2>&1; echo "bits$v rc=$?" >> $S; done
python3 - $R/bits0.json $R/bits1.json >> $S 2>&1 <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
same = [k for k in a if a[k]["sha256"] == b.get(k, {}).get("sha256")]
print(f"bitwise same {len(same)} of {len(a)}; worst err on/off {max(v['max_rel_err'] for v in b.values()):.2e}/{max(v['max_rel_err'] for v in a.values()):.2e}; nan left on {sum(v['nan'] for v in b.values())}")
for k in a:
    if k not in same: print("DIFF", k, a[k], b.get(k))
PY
F='GemmTest.*:ReliabilityTest.Determinism:ReliabilityTest.ConstWeightsBackToBackInAGraph:ReliabilityTest.OwnersSumIsBitwiseThePulledSum:ReliabilityTest.SanitizerSmoke:ReliabilityTest.BatchInvariantMode:FusedTest.*'
BLOCKFP8_DECODE_L2SUM=1 timeout 120 $N/tests/blockfp8_gpu_tests --gtest_filter="$F" > $R/gpu_tests_l2.log 2>&1
echo "gpu tests (L2 on) rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests_l2.log | tr '\n' ' ')" >> $S; grep -E "FAILED|Failure" $R/gpu_tests_l2.log | head >> $S
for tool in memcheck racecheck; do
  BLOCKFP8_DECODE_L2SUM=1 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $N/tests/blockfp8_gpu_tests --gtest_filter='ReliabilityTest.SanitizerSmoke:GemmTest.Padding' > $R/san_$tool.log 2>&1
  echo "$tool rc=$? $(tail -n 2 $R/san_$tool.log | tr '\n' ' ')" >> $S
done
echo "phase a done at $SECONDS s" >> $S
bench() {  # env-value tag shape m configs...
  local v=$1 tag=$2 shape=$3 m=$4; shift 4
  local cf=""; for c in "$@"; do cf="$cf --config $c"; done
  BLOCKFP8_DECODE_L2SUM=$v timeout 60 $B --shape $shape --m $m $cf --config-rounds 3 --no-cublaslt --no-bf16a --no-constw --no-check --json $R/t_${tag}_l2$v.jsonl > /dev/null 2>&1 || echo "bench $tag l2=$v failed" >> $S
}
for rep in 1 2; do for v in 1 0; do
  bench $v a$rep 2112,7168 16 swapab_r64_t16_s3_w2_k2_p6 swapab_r64_t16_s4_w2_k2_p6 swapab_r64_t16_s4_w2_k1_p12
  bench $v b$rep 2112,7168 24,32 swapab_r64_t32_s3_w2_k1_p12 swapab_r64_t32_s4_w2_k1_p12
  bench $v c$rep 2112,7168 48,64 swapab_r64_t64_s3_w2_k1_p11 swapab_r64_t64_s4_w2_k1_p11
  bench $v d$rep 2112,7168 8 swapab_r64_t8_s3_w2_k2_p6 swapab_r64_t8_s4_w2_k2_p6
  bench $v e$rep 1536,7168 16,32 swapab_r64_t16_s4_w2_k1_p12 swapab_r64_t16_s5_w2_k1_p12 swapab_r64_t32_s4_w2_k1_p12 swapab_r64_t32_s5_w2_k1_p12
  echo "timing rep $rep l2=$v done at $SECONDS s" >> $S
done; done
cat $S
