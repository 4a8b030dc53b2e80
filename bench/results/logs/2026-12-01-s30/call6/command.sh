#!/usr/bin/env bash
# s30 call 6. The quantiser launched with PDL (wip/quant-pdl: cudaLaunchKernelEx with programmatic
# stream serialization, griddepcontrol.wait in every thread before X, X_q or the scales): its CTAs can
# be resident while the preceding kernel finishes, so the two-launch bf16 path's quantiser starts
# without a launch gap. new = wip/quant-pdl (67a858e + that), old = 67a858e.
# (1) GPU tests of new: Quantize1x128.*, FusedTest.*, ReliabilityTest.*; compute-sanitizer memcheck and
# racecheck on the quantiser and fused tests. (2) Interleaved twice: blockfp8_bf16a and
# blockfp8_quant_gemm at M = 2-64 on nine shapes. (3) The quantiser bench (--quant), new and old, twice.
set -u
rm -rf b6 && tar -xJf build-carry/s30c6.tar.xz
R=$OUT/run; mkdir -p $R
timeout 120 b6/new/blockfp8_gpu_tests --gtest_filter='Quantize1x128.*:FusedTest.*:ReliabilityTest.*' > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 b6/new/blockfp8_gpu_tests --gtest_filter='Quantize1x128.*:FusedTest.*' > $R/memcheck.log 2>&1
echo "memcheck rc=$? $(tail -1 $R/memcheck.log)"
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 b6/new/blockfp8_gpu_tests --gtest_filter='Quantize1x128.*' > $R/racecheck.log 2>&1
echo "racecheck rc=$? $(tail -1 $R/racecheck.log)"
ARGS=""
for s in 2112,7168 4096,7168 4608,7168 12288,7168 7168,2048 7168,16384 576,7168 3072,1536 1536,7168; do ARGS="$ARGS --shape $s"; done
for rep in 1 2; do
  for side in new old; do
    timeout 120 b6/$side/blockfp8-bench $ARGS --m 2,4,8,16,32,64 --no-cublaslt --no-constw --no-floor --no-check \
      --json $R/bf_${side}_$rep.jsonl > /dev/null 2>&1 || echo "bench $side rep $rep failed"
  done
done
AB_BACKEND=blockfp8_bf16a python3 tools/ab_table.py new old $R/bf_new_1.jsonl $R/bf_new_2.jsonl $R/bf_old_1.jsonl $R/bf_old_2.jsonl > $R/bf16a_ab.md
AB_BACKEND=blockfp8_quant_gemm python3 tools/ab_table.py new old $R/bf_new_1.jsonl $R/bf_new_2.jsonl $R/bf_old_1.jsonl $R/bf_old_2.jsonl > $R/quant_gemm_ab.md
AB_BACKEND=blockfp8 python3 tools/ab_table.py new old $R/bf_new_1.jsonl $R/bf_new_2.jsonl $R/bf_old_1.jsonl $R/bf_old_2.jsonl > $R/fp8_control_ab.md
cat $R/bf16a_ab.md; tail -4 $R/quant_gemm_ab.md; tail -3 $R/fp8_control_ab.md
for rep in 1 2; do for side in new old; do
  timeout 90 b6/$side/blockfp8-bench --quant > $R/quant_${side}_$rep.log 2>&1; echo "quant $side $rep: $(grep -E 'M = 4096|4096' $R/quant_${side}_$rep.log | head -3 | tr '\n' ' ')"
done; done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
