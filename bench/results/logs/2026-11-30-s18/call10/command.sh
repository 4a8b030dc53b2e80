#!/usr/bin/env bash
# s18 call 10: the tiled kernel at M = 256-512 on N = 7168 weights, where the dispatcher's 112-row
# tiles in 2x1 clusters took 1.15-1.41x cuBLASLt's time (call 6): forced widths, clusters and K splits
# in three shuffled rounds, cuBLASLt in the same run.
set -u
R=$OUT/run; mkdir -p $R
B=build-dev/bench/blockfp8-bench
C=""
for c in tiled_t128_r112_p0_c2x1 tiled_t128_r112_p0_c1x1 tiled_t128_r112_p0_c1x2 tiled_t128_r96_p0_c2x1 tiled_t128_r128_p0_c2x1 \
         tiled_t128_r144_p0_c2x1 tiled_t128_r176_p0_c2x1 tiled_t128_r192_p0_c2x1 tiled_t128_r192_p0_c1x1 \
         tiled_t128_r112_p0_c1x1_k2 tiled_t128_r128_p0_c1x1_k2 tiled_t128_r144_p0_c1x1_k2 tiled_t128_r192_p0_c1x1_k2 \
         tiled_t128_r176_p0_c1x1_k2 tiled_t128_r192_p0_c1x1_k3 tiled_t128_r128_p0_c1x1_k3; do C="$C --config $c"; done
timeout 500 $B --shape 7168,2304 --shape 7168,4096 --shape 7168,16384 --shape 7168,2048 --m 256,512 $C --config-rounds 3 \
  --no-bf16a --no-floor --json $R/configs.jsonl > $R/configs.log 2>&1; echo "configs rc=$?" >> $R/summary.txt
cat $R/summary.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
