#!/usr/bin/env bash
# s36 call 5. c3 = 9ecf4cc (its 128-token kernels and dispatcher are main's, SASS identical).
# 2112x7168 (fused_qkv_a) at M = 385-576: the picks (64-row pairs to 512, 176 rows split 2 above) against
# splits of 2 of 144-192 rows and 128-row pairs, three shuffled rounds (call 4: 192 rows split 2 took
# 0.937x the 64-row pairs at M = 512).
set -u
trap 'tar -C $OUT -czf $OUT/run.tgz run && rm -rf $OUT/run' EXIT
[ -d c3 ] || tar -xJf build-carry/s36c3.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c3; B=$N/bench/blockfp8-bench
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
C="--config tiled_t128_r64_p8_c2x1 --config tiled_t128_r192_p4_c1x1_k2 --config tiled_t128_r176_p4_c1x1_k2 --config tiled_t128_r160_p5_c1x1_k2 --config tiled_t128_r144_p5_c1x1_k2 --config tiled_t128_r128_p5_c2x1"
timeout 300 $B --shape 2112,7168 --m 385,416,448,480,512,544,576 $C --config-rounds 3 --no-bf16a --no-constw --commit $(cat $N/COMMIT) --json $R/qkv.jsonl > $R/qkv.md 2> $R/qkv.err
echo "qkv rc=$? $(wc -l < $R/qkv.jsonl) at $SECONDS s" >> $S
cat $S
