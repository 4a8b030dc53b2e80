#!/usr/bin/env bash
# s35 call 2. c2 = branch s35-tile256 (main 39fd206 + 256-token tiles in the tiled kernel, forced only).
# (a) Every GPU test (the new TiledTest.WideTokenTile among them) and the unit tests; memcheck and
#     racecheck on ReliabilityTest.SanitizerSmoke (two 256-token cases added).
# (b) The wide tile forced against the 128-token widths the dispatcher picks at large M, three
#     shuffled rounds, M = 512-8192 on eight DeepSeek weights (cuBLASLt beside them).
set -u
rm -rf c2 && tar -xJf build-carry/s35c2.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c2; B=$N/bench/blockfp8-bench
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
timeout 150 $N/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S; grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
for t in unit api; do timeout 20 $N/tests/blockfp8_${t}_tests > $R/${t}_tests.log 2>&1; echo "$t rc=$? $(tail -1 $R/${t}_tests.log)" >> $S; done
BLOCKFP8_TEST_TIMEOUT=100 timeout 110 compute-sanitizer --tool memcheck --error-exitcode 99 $N/tests/blockfp8_gpu_tests --gtest_filter='ReliabilityTest.SanitizerSmoke' > $R/memcheck.log 2>&1; echo "memcheck rc=$? $(tail -n 1 $R/memcheck.log)" >> $S
BLOCKFP8_TEST_TIMEOUT=100 timeout 110 compute-sanitizer --tool racecheck --error-exitcode 99 $N/tests/blockfp8_gpu_tests --gtest_filter='ReliabilityTest.SanitizerSmoke' > $R/racecheck.log 2>&1; echo "racecheck rc=$? $(tail -n 1 $R/racecheck.log)" >> $S
CF="--config tiled_t128_r192_p4_c2x1 --config tiled_t128_r144_p5_c2x1 --config tiled_t256_r128_p3_c2x1 --config tiled_t256_r128_p3_c1x1 --config tiled_t256_r112_p3_c2x1 --config tiled_t256_r96_p3_c2x1 --config tiled_t256_r128_p3_c1x2"
SH="--shape 2112,7168 --shape 4096,7168 --shape 4608,7168 --shape 7168,2048 --shape 7168,16384 --shape 24576,7168 --shape 3072,1536 --shape 576,7168"
timeout 330 $B $SH --m 512,1024,2048,4096,8192 $CF --config-rounds 3 --no-bf16a --no-constw --commit $(cat $N/COMMIT) --json $R/wide.jsonl > $R/wide.md 2> $R/wide.err
echo "wide rc=$? $(wc -l < $R/wide.jsonl)" >> $S
cat $S
gzip $R/gpu_tests.log $R/wide.md $R/memcheck.log $R/racecheck.log
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
