#!/usr/bin/env bash
# s35 call 3. c3 = s35-tile256 d32cc33: the dispatcher weighs 256-token tiles of 128 rows (cost fitted on
# call 2). (a) Every GPU test and the unit tests. (b) The points whose pick it changes that call 2 did not
# time (4096x512 and the N = 7168 weights at M = 1024-8192), forced: the wide tile against the old picks
# (128-token tiles of 128, 160 and 192 rows in pairs along M), three shuffled rounds, no cuBLASLt.
set -u
rm -rf c3 && tar -xJf build-carry/s35c3.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c3; B=$N/bench/blockfp8-bench
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
timeout 150 $N/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S; grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
timeout 20 $N/tests/blockfp8_unit_tests > $R/unit_tests.log 2>&1; echo "unit rc=$? $(tail -1 $R/unit_tests.log)" >> $S
CF="--config tiled_t256_r128_p3_c2x1 --config tiled_t128_r128_p5_c2x1 --config tiled_t128_r160_p5_c2x1 --config tiled_t128_r192_p4_c2x1"
SH="--shape 4096,512 --shape 7168,256 --shape 7168,512 --shape 7168,1024 --shape 7168,2304 --shape 7168,4096 --shape 7168,4608 --shape 7168,8192 --shape 7168,9216 --shape 7168,18432"
timeout 300 $B $SH --m 1024,2048,4096,8192 $CF --config-rounds 3 --no-bf16a --no-constw --no-cublaslt --commit $(cat $N/COMMIT) --json $R/wide.jsonl > $R/wide.md 2> $R/wide.err
echo "wide rc=$? $(wc -l < $R/wide.jsonl)" >> $S
cat $S
gzip $R/gpu_tests.log $R/wide.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
