#!/usr/bin/env bash
# s27 call 1. new = wip/tiled-2x2-s27 (cc85f14 = main 7474127 + 2x2 tiled clusters, forced only; the 1-D
# clusters' multicast masks computed from the ranks); old = main 7474127.
# GPU tests Tiled* on new; memcheck + racecheck on TiledTest.EveryClusterShape (now with 2x2);
# forced 2x2 against 2x1/1x2 at M = 256-4096 in three shuffled rounds; new against old interleaved.
set -u
rm -rf build-2x2 build-dev && tar -xJf build-carry/s27c1.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv >> $S
timeout 120 build-2x2/tests/blockfp8_gpu_tests --gtest_filter='Tiled*' > $R/gpu_tests_tiled.log 2>&1
echo "gpu_tests Tiled* rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests_tiled.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure" $R/gpu_tests_tiled.log | head -20 >> $S
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool build-2x2/tests/blockfp8_gpu_tests --gtest_filter='TiledTest.EveryClusterShape' > $R/$tool.log 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $R/$tool.log | tr '\n' ' ')" >> $S
done
timeout 240 build-2x2/bench/blockfp8-bench --shape 7168,2304 --shape 4096,7168 --shape 2112,7168 --m 256,512,1024,2048,4096 \
  --config tiled_t128_r128_p0_c2x2 --config tiled_t128_r128_p0_c2x1 --config tiled_t128_r128_p0_c1x2 \
  --config tiled_t128_r192_p0_c2x2 --config tiled_t128_r192_p0_c2x1 --config tiled_t128_r144_p0_c2x2 --config tiled_t128_r144_p0_c2x1 \
  --config-rounds 3 --no-floor --no-cublaslt --no-bf16a --no-constw --json $R/forced.jsonl > $R/forced.log 2>&1
echo "forced rc=$?" >> $S
OUT=$R bash tools/binary_ab.sh tiled build-2x2/bench/blockfp8-bench build-dev/bench/blockfp8-bench \
  --shape 7168,2304 --shape 4096,7168 --shape 2112,7168 --shape 24576,7168 --m 256,512,1024,4096 --no-cublaslt --no-floor > /dev/null 2>&1
cat $R/tiled_ab.md >> $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
