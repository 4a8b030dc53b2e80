#!/usr/bin/env bash
# s27 call 9. build-nozf = wip/warpmma-no-zero-fill: the warp-MMA kernel zeroes its token chunks and a_scales
# past M once, before the ring, and issues token / a_scale copies only for tokens that exist (at M = 1,
# 28 of a warp's 32 token copies were zero fills). GPU tests on it (GemmTest.*, Fused*), racecheck on
# ForcedWarpMmaLayouts; A/B against main's GEMM (build-dev = 7474127) at M = 1-8 on seven weights.
set -u
rm -rf build-nozf build-dev && tar -xJf build-carry/s27c9.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
timeout 200 build-nozf/tests/blockfp8_gpu_tests --gtest_filter='GemmTest.*:Fused*' > $R/gpu.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure" $R/gpu.log | head -10 >> $S
timeout 150 compute-sanitizer --tool racecheck build-nozf/tests/blockfp8_gpu_tests --gtest_filter='GemmTest.ForcedWarpMmaLayouts' > $R/racecheck.log 2>&1
echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $R/racecheck.log | tr '\n' ' ')" >> $S
OUT=$R bash tools/binary_ab.sh nozf build-nozf/bench/blockfp8-bench build-dev/bench/blockfp8-bench \
  --shape 2112,7168 --shape 576,7168 --shape 1536,7168 --shape 3072,1536 --shape 4096,512 --shape 4096,7168 --shape 24576,1536 \
  --m 1,2,4,8 --no-cublaslt --no-floor > /dev/null 2>&1
cat $R/nozf_ab.md >> $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
