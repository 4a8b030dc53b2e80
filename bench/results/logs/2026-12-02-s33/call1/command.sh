#!/usr/bin/env bash
# s33 call 1. c1 = the s33 working tree at 62d0b1f + tiled_wins without the "tiles * 3 > SMs" guard (576x7168 on
# the tiled kernel's split at M = 129-512). (a) Every GPU test. (b) The tiled split cost: at every point of a fine
# M grid (33-1024) on the DeepSeek shapes where main's pick, the guard-less pick, or the pick under a split cost
# with a fixed term F x weight_rows k-block-rows (F = 6, 8, 10, 12, in place of 4 k-blocks x the tile's rows cost)
# differ, each distinct pick forced, three shuffled rounds (121 points, 680 timings a round; /tmp/s33/plan.json).
# (The GPU tests wait for the final call: this build's kernels are s32 call 4's, which passed them.)
set -u
rm -rf c1 && tar -xJf build-carry/s33c1.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
for t in unit api; do timeout 30 c1/tests/blockfp8_${t}_tests > $R/${t}_tests.log 2>&1; echo "$t rc=$? $(tail -1 $R/${t}_tests.log)" >> $S; done
export BLOCKFP8_COMMIT=$(cat c1/COMMIT) BLOCKFP8_BENCH_TIMEOUT=60
b() { local shape=$1 ms=$2; shift 2
  timeout 150 c1/bench/blockfp8-bench --shape $shape --m $ms --config-rounds 3 --no-bf16a --no-constw --no-cublaslt "$@" \
    --json $R/splitcost.jsonl >> $R/splitcost.md 2>&1; echo "$shape rc=$?" >> $S; }
b 576,7168 129,160,192,224,256,288,320,352,384,416,448,480,512,640,1024 --config swapab_r64_t128_s3_w2_k1_p5 --config swapab_r64_t128_s4_w2_k1_p5 --config swapab_r64_t128_s5_w2_k1_p6 --config tiled_t128_r128_p5_c1x1_k8 --config tiled_t128_r192_p4_c1x1_k4 --config tiled_t128_r192_p4_c1x1_k8 --config tiled_t128_r64_p8_c1x1_k3 --config tiled_t128_r64_p8_c1x1_k4 --config tiled_t128_r64_p8_c1x1_k5 --config tiled_t128_r80_p7_c1x1_k2 --config tiled_t128_r96_p7_c1x1_k4 --config tiled_t128_r96_p7_c1x1_k8
b 1536,7168 65,72,80,96,112,128,129,160,192,224,256,288,320,352,384,640,1024 --config tiled_t128_r112_p6_c1x1_k4 --config tiled_t128_r112_p6_c1x1_k8 --config tiled_t128_r128_p5_c1x1_k2 --config tiled_t128_r128_p5_c1x1_k3 --config tiled_t128_r128_p5_c1x1_k4 --config tiled_t128_r128_p5_c1x1_k8 --config tiled_t128_r160_p5_c1x1_k4 --config tiled_t128_r192_p4_c1x1_k2 --config tiled_t128_r64_p8_c1x1 --config tiled_t128_r64_p8_c1x1_k4 --config tiled_t128_r96_p7_c2x1
b 2112,7168 129,160,192,224,256,640,768 --config tiled_t128_r144_p5_c1x1_k4 --config tiled_t128_r176_p4_c1x1_k2 --config tiled_t128_r192_p4_c1x1_k2 --config tiled_t128_r64_p8_c1x1_k2 --config tiled_t128_r96_p7_c2x1
b 3072,1536 65,72,80,96,112,128 --config tiled_t128_r64_p8_c1x2 --config tiled_t128_r80_p7_c1x1_k3
b 3072,7168 65,72,80,96,112,128,416,448,480,512 --config tiled_t128_r112_p6_c1x1_k4 --config tiled_t128_r128_p5_c1x1_k4 --config tiled_t128_r192_p4_c1x1_k2 --config tiled_t128_r96_p7_c2x1
b 4096,7168 65,72,80,96,112,128,129,160,192,224,256,288,320,352,384 --config tiled_t128_r128_p5_c1x1_k2 --config tiled_t128_r144_p5_c1x1_k4 --config tiled_t128_r192_p4_c1x1_k2 --config tiled_t128_r64_p8_c1x1_k2 --config tiled_t128_r64_p8_c2x1 --config tiled_t128_r96_p7_c1x1
b 4608,7168 33,40,48,56,64,65,72,80,96,112,128 --config tiled_t128_r128_p5_c1x1_k3 --config tiled_t128_r160_p5_c1x1_k4
b 6144,7168 65,72,80,96,112,128,129,160,192,224,256 --config tiled_t128_r160_p5_c1x1_k3 --config tiled_t128_r192_p4_c1x1_k2 --config tiled_t128_r96_p7_c1x1_k2 --config tiled_t128_r96_p7_c2x1
b 7168,8192 65,72,80,96,112,128 --config tiled_t128_r112_p6_c1x1_k2 --config tiled_t128_r128_p5_c1x1_k2 --config tiled_t128_r64_p8_c1x2
b 7168,9216 65,72,80,96,112,128 --config tiled_t128_r112_p6_c1x1_k2 --config tiled_t128_r192_p4_c1x1_k3 --config tiled_t128_r64_p8_c1x2
b 7168,16384 65,72,80,96,112,128 --config tiled_t128_r112_p6_c1x1_k2 --config tiled_t128_r192_p4_c1x1_k3
b 9216,7168 33,40,48,56,64,65,72,80,96,112,128 --config tiled_t128_r144_p5_c1x1_k2 --config tiled_t128_r80_p7_c1x2
cat $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
