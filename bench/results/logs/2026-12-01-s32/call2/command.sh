#!/usr/bin/env bash
# s32 call 2. c2 = 1d19dcc (s32-fused-feed: the TMA decode kernel's fused A side quantises one k-block at a
# time inside the math loop; one launch wherever the GEMM's pick is that kernel with one token tile of at
# most 32 and a grid within the SMs). (a) Every GPU test; memcheck and racecheck on FusedTest.SanitizerSmoke
# (one launch at M = 12 and 24 on the TMA kernel). (b) One launch against two (BLOCKFP8_FUSED=1/0, the same
# binary), backend blockfp8_bf16a, interleaved twice, on the 14 weights whose grids fit the SMs, M = 5-32.
set -u
rm -rf c2 && tar -xJf build-carry/s32c2.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c2
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
timeout 170 $N/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S; grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
grep "fused    \]" $R/gpu_tests.log >> $S
for t in unit api; do timeout 30 $N/tests/blockfp8_${t}_tests > $R/${t}_tests.log 2>&1; echo "$t rc=$? $(tail -1 $R/${t}_tests.log)" >> $S; done
for tool in memcheck racecheck; do
  BLOCKFP8_TEST_TIMEOUT=80 timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $N/tests/blockfp8_gpu_tests --gtest_filter='FusedTest.SanitizerSmoke' > $R/$tool.log 2>&1
  echo "$tool rc=$? $(tail -1 $R/$tool.log)" >> $S
done
A=""; for s in 2112,7168 576,7168 4096,7168 7168,2048 6144,1536 8192,512 3072,7168 7168,1024 3072,1536 4096,512 7168,2304 1536,7168 7168,512 7168,256; do A="$A --shape $s"; done
export BLOCKFP8_COMMIT=$(cat $N/COMMIT)
for rep in 1 2; do
  for v in 1 0; do
    BLOCKFP8_FUSED=$v timeout 90 $N/bench/blockfp8-bench $A --m 5,8,9,12,16,24,32 --no-cublaslt --no-floor --no-constw --no-check \
      --json $R/fused${v}_$rep.jsonl > /dev/null 2>&1 || echo "bench FUSED=$v rep $rep failed" >> $S
  done
done
AB_BACKEND=blockfp8_bf16a python3 tools/ab_table.py one_launch two_launches $R/fused1_1.jsonl $R/fused1_2.jsonl $R/fused0_1.jsonl $R/fused0_2.jsonl > $R/fused_ab.md
python3 tools/ab_table.py fp8_FUSED1 fp8_FUSED0 $R/fused1_1.jsonl $R/fused1_2.jsonl $R/fused0_1.jsonl $R/fused0_2.jsonl > $R/fp8_ab.md
echo "ab done" >> $S
cat $S; cat $R/fused_ab.md | tail -110
gzip $R/gpu_tests.log $R/memcheck.log $R/racecheck.log 2>/dev/null
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
