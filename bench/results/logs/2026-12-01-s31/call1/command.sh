#!/usr/bin/env bash
# s31 call 1. (a) Every GPU test at b23440a: a97fa2d (launch_config's pdl), 172e0fe (timeline-only marks)
# and 0d75e34 (the narrowed bf16a PDL rule) have not run on a GPU; memcheck on the quantiser's and the
# bf16a path's tests. (b) #7: why the PDL quantiser loses at M = 128-256 and on large weights: its
# timeline marks beside the GEMM's with BLOCKFP8_BF16A_QUANT_PDL=1 and 0 (timeline build). (c) The
# narrowed rule, interleaved: BLOCKFP8_BF16A_QUANT_PDL=1 against the rule (unset -> 0 where it says no)
# at M = 96-256 on small weights and M = 16-64 on large ones.
set -u
rm -rf c1 && tar -xJf build-carry/s31c1.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c1/dev
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
timeout 150 $N/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S; grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
for t in unit api; do timeout 30 $N/tests/blockfp8_${t}_tests > $R/${t}_tests.log 2>&1; echo "$t rc=$? $(tail -1 $R/${t}_tests.log)" >> $S; done
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $N/tests/blockfp8_gpu_tests --gtest_filter='FusedTest.BackToBack*:FusedTest.CudaGraphReplay:Quantize1x128.*' > $R/memcheck.log 2>&1
echo "memcheck rc=$? $(tail -1 $R/memcheck.log)" >> $S
T=$N/bench/decode_timeline
for v in 1 0; do
  for shape in "2112 7168 256" "2112 7168 128" "2112 7168 32" "4096 7168 64"; do
    BLOCKFP8_BF16A_QUANT_PDL=$v timeout 60 $T $shape bf16a > $R/tl_pdl${v}_$(echo $shape | tr ' ' _).txt 2>&1
  done
done
echo "timelines done" >> $S
A=""
for s in 2112,7168 576,7168 1536,7168 3072,1536 7168,2048; do A="$A --shape $s"; done
OUT=$R/small AB_BACKEND=blockfp8_bf16a AB_VALUES="1 0" timeout 150 bash tools/env_ab.sh $N BLOCKFP8_BF16A_QUANT_PDL $A --m 96,128,192,256 --no-cublaslt --no-floor > /dev/null 2>&1
echo "small ab rc=$?" >> $S
A=""
for s in 4096,7168 4608,7168 7168,16384; do A="$A --shape $s"; done
OUT=$R/large AB_BACKEND=blockfp8_bf16a AB_VALUES="1 0" timeout 120 bash tools/env_ab.sh $N BLOCKFP8_BF16A_QUANT_PDL $A --m 16,32,64 --no-cublaslt --no-floor > /dev/null 2>&1
echo "large ab rc=$?" >> $S
cat $S; cat $R/small/*_ab.md $R/large/*_ab.md 2>/dev/null
gzip $R/gpu_tests.log $R/memcheck.log
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
