#!/usr/bin/env bash
# s30 call 3. 2112x7168 and 1536x7168 at M = 192 and 256 (the tiled kernel's split-K picks; the primary
# shape at M = 256 is 3.0x the floor): the pick against narrower tiles with shorter DSMEM sums (64-row
# tiled tiles split 2, the decode kernel's 128-token tiles split 2) and other width/split pairs the cost
# model rates close. The call 1 timeline at M = 256: the math phase 8.0 us at ~60 GB/s an SM of operand
# bytes, the split-4 sum 2.3 us. Three shuffled rounds, medians.
set -u
rm -rf b2 && tar -xJf build-carry/s30c2.tar.xz
R=$OUT/run; mkdir -p $R
export BLOCKFP8_COMMIT=67a858e BLOCKFP8_BENCH_TIMEOUT=60
C=""
for c in tiled_t128_r144_p0_c1x1_k4 tiled_t128_r64_p0_c1x1_k2 tiled_t128_r64_p0_c1x1_k3 swapab_r64_t128_s2_w2_k1_p0 \
         swapab_r64_t128_s3_w2_k1_p0 tiled_t128_r192_p0_c1x1_k5 tiled_t128_r160_p0_c1x1_k4 tiled_t128_r128_p0_c1x1_k3 \
         tiled_t128_r96_p0_c1x1_k3; do C="$C --config $c"; done
timeout 300 b2/bench/blockfp8-bench --shape 2112,7168 --shape 1536,7168 --m 192,256 $C --config-rounds 3 \
  --no-cublaslt --no-bf16a --no-constw --no-floor --json $R/forced.jsonl > $R/forced.log 2>&1; echo "rc=$?"
grep -E "^\| [0-9]" $R/forced.log | head -60
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
