#!/usr/bin/env bash
# s31 call 3. Builds: c4 = 89b8ba5 (pairs beside split-K, the batched split sum, the bf16a quantiser under
# PDL up to 256 tokens spread over the SMs), c3 = 57c4ee7 (pairs + batched sum, the old PDL rule),
# c2 = 53b5243 (pairs, one quad at a time). (a) Every GPU test at c4; memcheck on the split-K and bf16a
# tests. (b) The batched sum: c4 against c2 on the dispatcher's split picks (fp8). (c) The new bf16a
# rule: c4 against c3, backend blockfp8_bf16a, interleaved twice. (d) Timeline of 2112x7168 M = 256.
# (e) racecheck on the pairs and the back-to-back bf16a test with a longer watchdog, last.
set -u
rm -rf c2 c3 c4 && tar -xJf build-carry/s31c3.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c4/dev
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
timeout 150 $N/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S; grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
for t in unit api; do timeout 30 $N/tests/blockfp8_${t}_tests > $R/${t}_tests.log 2>&1; echo "$t rc=$? $(tail -1 $R/${t}_tests.log)" >> $S; done
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $N/tests/blockfp8_gpu_tests --gtest_filter='TiledTest.SplitK*:FusedTest.BackToBack*:FusedTest.CudaGraphReplay:Quantize1x128.*' > $R/memcheck.log 2>&1
echo "memcheck rc=$? $(tail -1 $R/memcheck.log)" >> $S
A=""; for s in 2112,7168 1536,7168 4096,7168 4608,7168 9216,7168 7168,16384; do A="$A --shape $s"; done
OUT=$R/sumab timeout 150 bash tools/binary_ab.sh batchedsum $N/bench/blockfp8-bench c2/dev/bench/blockfp8-bench $A --m 96,128,192,256 --no-cublaslt --no-floor > /dev/null 2>&1
echo "batched sum ab rc=$?" >> $S
A=""; for s in 2112,7168 576,7168 1536,7168 3072,1536 7168,2048 4096,7168 4608,7168 7168,16384 12288,7168; do A="$A --shape $s"; done
for rep in 1 2; do
  for side in c4 c3; do
    timeout 60 $side/dev/bench/blockfp8-bench $A --m 2,8,32,96,192 --no-cublaslt --no-floor --no-constw --no-check \
      --json $R/bf_${side}_$rep.jsonl > /dev/null 2>&1 || echo "bf16a $side rep $rep failed" >> $S
  done
done
AB_BACKEND=blockfp8_bf16a python3 tools/ab_table.py new_rule old_rule $R/bf_c4_1.jsonl $R/bf_c4_2.jsonl $R/bf_c3_1.jsonl $R/bf_c3_2.jsonl > $R/bf16a_rule_ab.md
echo "bf16a rule ab done" >> $S
T=$N/bench/decode_timeline
timeout 30 $T 2112 7168 256 > $R/tl_2112_7168_256.txt 2>&1
TIMELINE_CONFIG=tiled_t128_r144_p5_c2x1_k4 timeout 30 $T 2112 7168 256 > $R/tl_2112_7168_256_pair.txt 2>&1
timeout 30 $T 2112 7168 256 bf16a > $R/tl_2112_7168_256_bf16a.txt 2>&1
echo "timelines done" >> $S
cat $S; cat $R/sumab/*_ab.md $R/bf16a_rule_ab.md
BLOCKFP8_TEST_TIMEOUT=170 timeout 180 compute-sanitizer --tool racecheck --error-exitcode 9 $N/tests/blockfp8_gpu_tests --gtest_filter='TiledTest.SplitKBesidePairs' > $R/racecheck.log 2>&1
echo "racecheck pairs rc=$? $(tail -1 $R/racecheck.log)" >> $S
tail -2 $S
gzip $R/gpu_tests.log $R/memcheck.log $R/racecheck.log 2>/dev/null
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
