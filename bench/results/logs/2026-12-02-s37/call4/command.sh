#!/usr/bin/env bash
# s37 call 4. c4 = 2-D clusters in the tiled kernel (cta_m = 2 x cta_n = 2 or 4 at 128 x 128 tiles: the token
# tile multicast along N, the weight tile along M), forced only; every other instance's SASS is main's.
# (a) The tiled GPU tests (EveryClusterShape runs both 2-D shapes on six problems), memcheck on that test.
# (b) Forced rows at M = 192, 256, 512 on the N = 7168 weights and 4096/4608 x 7168: the pick (2 x 1) against
#     2 x 2 and 2 x 4, three shuffled rounds, cuBLASLt beside them.
set -u
trap 'tar -C $OUT -czf $OUT/run.tgz run && rm -rf $OUT/run' EXIT
rm -rf c4 && tar -xJf build-carry/s37c4.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c4; B=$N/bench/blockfp8-bench
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
timeout 120 $N/tests/blockfp8_gpu_tests --gtest_filter='TiledTest.*:GemmTest.ConfigResolveIsWhatRuns:GemmTest.InvalidForcedConfigs:ReliabilityTest.Determinism' > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S; grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $N/tests/blockfp8_gpu_tests --gtest_filter='TiledTest.EveryClusterShape' > $R/san_memcheck.log 2>&1
echo "memcheck rc=$? $(tail -n 2 $R/san_memcheck.log | tr '\n' ' ') at $SECONDS s" >> $S
CF="--config tiled_t128_r128_p5_c2x1 --config tiled_t128_r128_p5_c2x2 --config tiled_t128_r128_p5_c2x4 --config-rounds 3"
SH="--shape 7168,2048 --shape 7168,2304 --shape 7168,4096 --shape 7168,4608 --shape 7168,8192 --shape 7168,9216 --shape 7168,16384 --shape 7168,18432 --shape 7168,1024 --shape 7168,512 --shape 4096,7168 --shape 4608,7168"
left=$((560 - SECONDS)); [ $left -gt 330 ] && left=330
timeout $left $B $SH --m 192,256,512 $CF --no-bf16a --no-constw --json $R/forced.jsonl > $R/forced.md 2> $R/forced.err
echo "forced rc=$? $(wc -l < $R/forced.jsonl) rows at $SECONDS s" >> $S
cat $S
