#!/usr/bin/env bash
# s18 call 9: M = 17-32 as several 16- or 8-token tiles (the owner's sum where one round of clusters
# holds them) against the dispatcher's 32-token tile, forced configurations in shuffled rounds.
set -u
R=$OUT/run; mkdir -p $R
B=build-dev/bench/blockfp8-bench
C=""
for c in swapab_r64_t32_s3_w2_k2_p0 swapab_r64_t32_s2_w2_k2_p0 swapab_r64_t16_s2_w2_k2_p0 swapab_r64_t16_s2_w2_k1_p0 \
         swapab_r64_t16_s3_w2_k2_p0 swapab_r64_t16_s1_w2_k4_p0 swapab_r64_t8_s1_w2_k4_p0 swapab_r32_t16_s2_w2_k2_p0; do C="$C --config $c"; done
timeout 400 $B --shape 2112,7168 --shape 3072,7168 --shape 4096,7168 --shape 1536,7168 --m 17,24,32 $C --config-rounds 3 \
  --no-cublaslt --no-bf16a --json $R/configs.jsonl > $R/configs.log 2>&1; echo "configs rc=$?" >> $R/summary.txt
cat $R/summary.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
