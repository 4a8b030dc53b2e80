#!/usr/bin/env bash
# s32 call 4. c4 = 19cd695 (s32-resolve: blockfp8_config_resolve; the bench's forced rows say what they run as).
# (a) Every GPU test (GemmTest.ConfigResolveIsWhatRuns is new). (b) kv_a (576x7168) at M = 65-512: the decode
# picks against the tiled kernel's splits, three shuffled rounds (call 3 found tiled split 8 at 96 rows
# 0.886-0.935x the pick at M = 192-256; tiled_wins keeps 576x7168 on the decode kernel at every M <= 512).
set -u
rm -rf c4 && tar -xJf build-carry/s32c4.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
timeout 170 c4/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S; grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
for t in unit api; do timeout 30 c4/tests/blockfp8_${t}_tests > $R/${t}_tests.log 2>&1; echo "$t rc=$? $(tail -1 $R/${t}_tests.log)" >> $S; done
export BLOCKFP8_COMMIT=$(cat c4/COMMIT) BLOCKFP8_BENCH_TIMEOUT=60
C=""
for c in swapab_r64_t128_s8_w2_k1_p6 swapab_r64_t128_s5_w2_k1_p6 swapab_r64_t128_s4_w2_k1_p5 swapab_r64_t128_s3_w2_k1_p5 \
         tiled_t0_r0_p0_c0x0 tiled_t128_r64_p8_c1x1_k8 tiled_t128_r64_p8_c1x1_k4 tiled_t128_r96_p7_c1x1_k8 tiled_t128_r96_p7_c1x1_k4 \
         tiled_t128_r128_p5_c1x1_k8 tiled_t128_r128_p5_c1x1_k4 tiled_t128_r192_p4_c1x1_k8 tiled_t128_r192_p4_c1x1_k4; do C="$C --config $c"; done
timeout 300 c4/bench/blockfp8-bench --shape 576,7168 --m 65,96,128,129,160,192,224,256,320,384,448,512 --config-rounds 3 \
  --no-bf16a --no-constw $C --json $R/kv_a.jsonl > $R/kv_a.md 2>&1; echo "kv_a rc=$?" >> $S
python3 tools/forced_vs_dispatch.py $R/kv_a.jsonl > $R/kv_a_forced.txt 2>&1
cat $S; cut -c1-420 $R/kv_a_forced.txt
gzip $R/gpu_tests.log
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
