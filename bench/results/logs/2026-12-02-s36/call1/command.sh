#!/usr/bin/env bash
# s36 call 1. c1 = main 86aa0b5 (the wide rule behind BLOCKFP8_TILED_WIDE=1; its instances' SASS not yet run).
# (a) Every GPU test, unit and api tests; memcheck and racecheck on ReliabilityTest.SanitizerSmoke.
# (b) The wide rule interleaved with its switch, twice each way, on the 10 weights it moves (M = 1024-8192).
# (c) Forced at M = 256 and 512 where the picks lose to cuBLASLt: 256-token tiles at 512 (one round on the
#     N = 7168 weights), 112-row tiles at 256 (7168 = 64 x 112), wide splits of 2112x7168; three shuffled rounds.
set -u
rm -rf c1 && tar -xJf build-carry/s36c1.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c1; B=$N/bench/blockfp8-bench
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
timeout 150 $N/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S; grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
for t in unit api; do timeout 20 $N/tests/blockfp8_${t}_tests > $R/${t}_tests.log 2>&1; echo "$t rc=$? $(tail -1 $R/${t}_tests.log)" >> $S; done
BLOCKFP8_TEST_TIMEOUT=100 timeout 110 compute-sanitizer --tool memcheck --error-exitcode 99 $N/tests/blockfp8_gpu_tests --gtest_filter='ReliabilityTest.SanitizerSmoke' > $R/memcheck.log 2>&1; echo "memcheck rc=$? $(tail -n 1 $R/memcheck.log)" >> $S
BLOCKFP8_TEST_TIMEOUT=100 timeout 110 compute-sanitizer --tool racecheck --error-exitcode 99 $N/tests/blockfp8_gpu_tests --gtest_filter='ReliabilityTest.SanitizerSmoke' > $R/racecheck.log 2>&1; echo "racecheck rc=$? $(tail -n 1 $R/racecheck.log)" >> $S
echo "tests done at $SECONDS s" >> $S
OUT=$R/wide timeout 200 bash tools/env_ab.sh $N BLOCKFP8_TILED_WIDE --shape 4096,7168 --shape 7168,1024 --shape 7168,2048 --shape 7168,2304 --shape 7168,4096 --shape 7168,4608 --shape 7168,8192 --shape 7168,9216 --shape 7168,16384 --shape 7168,18432 --m 1024,2048,4096,8192 --no-cublaslt > $R/wide_ab.log 2>&1
echo "wide A/B rc=$? at $SECONDS s" >> $S
SH="--shape 4096,7168 --shape 3072,7168 --shape 7168,1024 --shape 7168,2048 --shape 7168,2304 --shape 7168,4608 --shape 7168,9216 --shape 7168,16384"
timeout 110 $B $SH --m 512 --config tiled_t128_r128_p5_c2x1 --config tiled_t256_r128_p3_c2x1 --config tiled_t256_r128_p3_c1x1 --config tiled_t256_r112_p3_c2x1 --config-rounds 3 --no-bf16a --no-constw --no-check --commit $(cat $N/COMMIT) --json $R/m512.jsonl > $R/m512.md 2> $R/m512.err
echo "m512 rc=$? $(wc -l < $R/m512.jsonl) at $SECONDS s" >> $S
timeout 60 $B $SH --m 256 --config tiled_t128_r128_p5_c2x1 --config tiled_t128_r112_p0_c2x1 --config tiled_t128_r112_p0_c1x1 --config-rounds 3 --no-bf16a --no-constw --no-check --commit $(cat $N/COMMIT) --json $R/m256.jsonl > $R/m256.md 2> $R/m256.err
echo "m256 rc=$? $(wc -l < $R/m256.jsonl) at $SECONDS s" >> $S
timeout 60 $B --shape 2112,7168 --m 256,512 --config tiled_t128_r192_p0_c1x1_k3 --config tiled_t128_r192_p0_c1x1_k5 --config tiled_t128_r192_p0_c1x1_k6 --config tiled_t128_r176_p0_c1x1_k5 --config tiled_t128_r144_p0_c1x1_k2 --config tiled_t128_r144_p0_c1x1_k4 --config tiled_t128_r64_p8_c2x1 --config-rounds 3 --no-bf16a --no-constw --commit $(cat $N/COMMIT) --json $R/qkv.jsonl > $R/qkv.md 2> $R/qkv.err
echo "qkv rc=$? $(wc -l < $R/qkv.jsonl) at $SECONDS s" >> $S
cat $S
gzip $R/gpu_tests.log $R/memcheck.log $R/racecheck.log
