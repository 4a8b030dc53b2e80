#!/usr/bin/env bash
# s30 call 7. Validation of d4f9625 (the bf16a path's quantiser with PDL on weights up to 16 MiB,
# bf16a_quantizer_pdl): every GPU test; compute-sanitizer memcheck on the new back-to-back test and the
# quantiser's, racecheck and synccheck on the quantiser's; then interleaved twice against 67a858e
# (blockfp8_bf16a and blockfp8_quant_gemm, the same nine shapes and M = 2-64 as call 6).
set -u
rm -rf b7 && tar -xJf build-carry/s30c7.tar.xz
R=$OUT/run; mkdir -p $R
N=b7/new
timeout 150 $N/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests.log | tr '\n' ' ')"; grep -E "FAILED|Failure" $R/gpu_tests.log | head
for t in unit api; do timeout 30 $N/tests/blockfp8_${t}_tests > $R/${t}_tests.log 2>&1; echo "$t rc=$? $(tail -1 $R/${t}_tests.log)"; done
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $N/tests/blockfp8_gpu_tests --gtest_filter='FusedTest.BackToBack*:FusedTest.CudaGraphReplay:Quantize1x128.*' > $R/memcheck.log 2>&1
echo "memcheck rc=$? $(tail -1 $R/memcheck.log)"
for tool in racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $N/tests/blockfp8_gpu_tests --gtest_filter='Quantize1x128.*:FusedTest.BackToBack*' > $R/$tool.log 2>&1
  echo "$tool rc=$? $(tail -1 $R/$tool.log)"
done
ARGS=""
for s in 2112,7168 4096,7168 4608,7168 12288,7168 7168,2048 7168,16384 576,7168 3072,1536 1536,7168; do ARGS="$ARGS --shape $s"; done
for rep in 1 2; do
  for side in new old; do
    bin=$N/bench/blockfp8-bench; [ $side = old ] && bin=b7/old/blockfp8-bench
    timeout 120 $bin $ARGS --m 2,4,8,16,32,64 --no-cublaslt --no-constw --no-floor --no-check \
      --json $R/bf_${side}_$rep.jsonl > /dev/null 2>&1 || echo "bench $side rep $rep failed"
  done
done
AB_BACKEND=blockfp8_bf16a python3 tools/ab_table.py new old $R/bf_new_1.jsonl $R/bf_new_2.jsonl $R/bf_old_1.jsonl $R/bf_old_2.jsonl > $R/bf16a_ab.md
AB_BACKEND=blockfp8_quant_gemm python3 tools/ab_table.py new old $R/bf_new_1.jsonl $R/bf_new_2.jsonl $R/bf_old_1.jsonl $R/bf_old_2.jsonl > $R/quant_gemm_ab.md
cat $R/bf16a_ab.md; echo; awk -F'|' 'NR>2{print $6}' $R/quant_gemm_ab.md | sort -n | sed -n '1p;$p'
gzip $R/gpu_tests.log $R/memcheck.log
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
