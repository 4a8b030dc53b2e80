#!/usr/bin/env bash
# s36 call 4. c3 = 9ecf4cc (branch s36-wide-split: 256-token tiles split over K at 128 rows, forced only;
# every other kernel's SASS as main's).
# (a) Every GPU test (TiledTest.WideTokenTileSplitK new), unit and api; memcheck and racecheck on
#     ReliabilityTest.SanitizerSmoke (a wide split case added).
# (b) The wide split forced against the picks where 128-token tiles leave SMs idle or lose to cuBLASLt:
#     M = 256 and 512, three shuffled rounds, the picks forced beside them.
set -u
trap 'tar -C $OUT -czf $OUT/run.tgz run && rm -rf $OUT/run' EXIT
rm -rf c3 && tar -xJf build-carry/s36c3.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c3; B=$N/bench/blockfp8-bench
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
timeout 150 $N/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S; grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
for t in unit api; do timeout 20 $N/tests/blockfp8_${t}_tests > $R/${t}_tests.log 2>&1; echo "$t rc=$? $(tail -1 $R/${t}_tests.log)" >> $S; done
BLOCKFP8_TEST_TIMEOUT=100 timeout 110 compute-sanitizer --tool memcheck --error-exitcode 99 $N/tests/blockfp8_gpu_tests --gtest_filter='ReliabilityTest.SanitizerSmoke' > $R/memcheck.log 2>&1; echo "memcheck rc=$? $(tail -n 1 $R/memcheck.log)" >> $S
BLOCKFP8_TEST_TIMEOUT=100 timeout 110 compute-sanitizer --tool racecheck --error-exitcode 99 $N/tests/blockfp8_gpu_tests --gtest_filter='ReliabilityTest.SanitizerSmoke' > $R/racecheck.log 2>&1; echo "racecheck rc=$? $(tail -n 1 $R/racecheck.log)" >> $S
echo "tests done at $SECONDS s" >> $S
W="--config tiled_t256_r128_p3_c1x1_k2 --config tiled_t256_r128_p3_c1x1_k3 --config tiled_t256_r128_p3_c1x1_k4 --config tiled_t256_r128_p3_c1x1_k6"
timeout 150 $B --shape 2112,7168 --shape 3072,7168 --shape 4096,7168 --shape 4608,7168 --shape 7168,2048 --shape 7168,2304 --shape 7168,4608 --shape 7168,9216 --shape 7168,16384 --m 256 $W --config tiled_t128_r128_p5_c2x1 --config tiled_t128_r160_p5_c1x1_k4 --config tiled_t128_r96_p7_c1x1_k2 --config tiled_t128_r128_p5_c1x1_k2 --config tiled_t128_r144_p5_c1x1_k2 --config-rounds 3 --no-bf16a --no-constw --commit $(cat $N/COMMIT) --json $R/m256.jsonl > $R/m256.md 2> $R/m256.err
echo "m256 rc=$? $(wc -l < $R/m256.jsonl) at $SECONDS s" >> $S
timeout 150 $B --shape 2112,7168 --shape 3072,7168 --shape 4096,7168 --shape 576,7168 --m 512 $W --config tiled_t128_r64_p8_c2x1 --config tiled_t128_r192_p4_c1x1_k2 --config tiled_t128_r128_p5_c2x1 --config tiled_t128_r96_p7_c1x1_k4 --config-rounds 3 --no-bf16a --no-constw --commit $(cat $N/COMMIT) --json $R/m512.jsonl > $R/m512.md 2> $R/m512.err
echo "m512 rc=$? $(wc -l < $R/m512.jsonl) at $SECONDS s" >> $S
cat $S
gzip $R/gpu_tests.log $R/memcheck.log $R/racecheck.log
