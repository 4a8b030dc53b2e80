#!/usr/bin/env bash
# s26 call 10. new = 101867e + the decode kernel's warp index read from lane 0 (its role branches and
# what derives from them become warp-uniform to ptxas: 3-10 % fewer instructions in most instances,
# no R2UR before the wgmmas of one-warpgroup instances); old = build-dev (101867e). GPU tests on new;
# new against old interleaved twice on decode points (TMA decode kernel, M = 16-128, and the fused
# bf16a path at M = 1-8).
set -u
rm -rf build-new build-dev && tar -xJf build-carry/ab2.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
timeout 150 build-new/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure" $R/gpu_tests.log | head -20 >> $S
gzip -9 -n $R/gpu_tests.log
OUT=$R bash tools/binary_ab.sh decode build-new/bench/blockfp8-bench build-dev/bench/blockfp8-bench \
  --shape 2112,7168 --shape 576,7168 --shape 4096,7168 --shape 7168,16384 --shape 4608,7168 --shape 3072,1536 \
  --m 16,24,32,48,64,96,128 --no-cublaslt --no-floor > /dev/null 2>&1
cat $R/decode_ab.md >> $S
for rep in 1 2; do for side in new dev; do
  timeout 100 build-$side/bench/blockfp8-bench --shape 2112,7168 --shape 576,7168 --shape 4096,512 --m 1,2,4,8 --no-cublaslt --no-floor \
    --no-constw --no-check --json $R/bf16a_${side}_$rep.jsonl > /dev/null 2>&1
done; done
AB_BACKEND=blockfp8_bf16a python3 tools/ab_table.py new old $R/bf16a_new_1.jsonl $R/bf16a_new_2.jsonl $R/bf16a_dev_1.jsonl $R/bf16a_dev_2.jsonl > $R/bf16a_ab.md
cat $R/bf16a_ab.md >> $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
