#!/usr/bin/env bash
# s36 call 6. c4 = main with the two measured picks for fused_qkv_a at M = 385-576 (call 5).
# (a) Every GPU test, unit and api. (b) The primary shape, 2112x7168, at every benchmark M (floor, cuBLASLt,
# checks). (c) The new picks against the old ones at M = 385-576, forced, three shuffled rounds.
set -u
trap 'tar -C $OUT -czf $OUT/run.tgz run && rm -rf $OUT/run' EXIT
rm -rf c4 && tar -xJf build-carry/s36c4.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c4; B=$N/bench/blockfp8-bench
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
timeout 90 $N/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S; grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
for t in unit api; do timeout 20 $N/tests/blockfp8_${t}_tests > $R/${t}_tests.log 2>&1; echo "$t rc=$? $(tail -1 $R/${t}_tests.log)" >> $S; done
timeout 60 $B --shape 2112,7168 --commit $(cat $N/COMMIT) --json $R/qkv.jsonl > $R/qkv.md 2> $R/qkv.err
echo "qkv rc=$? $(wc -l < $R/qkv.jsonl) at $SECONDS s" >> $S
timeout 60 $B --shape 2112,7168 --m 385,448,512,544,576 --config tiled_t128_r64_p8_c2x1 --config tiled_t128_r160_p5_c1x1_k2 --config tiled_t128_r176_p4_c1x1_k2 --config tiled_t128_r192_p4_c1x1_k2 --config-rounds 3 --no-bf16a --no-constw --commit $(cat $N/COMMIT) --json $R/picks.jsonl > $R/picks.md 2> $R/picks.err
echo "picks rc=$? $(wc -l < $R/picks.jsonl) at $SECONDS s" >> $S
cat $S
gzip $R/gpu_tests.log
