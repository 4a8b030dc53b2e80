#!/usr/bin/env bash
# s29 call 10. Timelines (-DBLOCKFP8_TIMELINE=ON build at c76570b; TIMELINE_CONFIG) of the old and new ring
# depths: does the shallower ring (calls 1-3) land the first stages sooner, or stream faster? 2112x7168 at
# M = 16 (10 against 6 stages of two k-blocks) and 32 (16 against 12 of one), 4608x7168 at 16 (paired: 10
# against 6), and 7168x16384 at 16 (the long stream: 21 against 13 stages of one k-block, 1.005-1.015x).
set -u
rm -rf build-tl29 && tar -xJf build-carry/s29c10.tar.xz
R=$OUT/run; mkdir -p $R; T=build-tl29/decode_timeline
tl() { TIMELINE_CONFIG=$4 timeout 60 $T $1 $2 $3 > $R/$5.txt 2>&1; }
for rep in 1 2; do
  tl 2112 7168 16 swapab_r64_t16_s3_w2_k2_p10 p16_deep_$rep
  tl 2112 7168 16 swapab_r64_t16_s3_w2_k2_p6 p16_budget_$rep
  tl 2112 7168 32 swapab_r64_t32_s3_w2_k1_p16 p32_deep_$rep
  tl 2112 7168 32 swapab_r64_t32_s3_w2_k1_p12 p32_budget_$rep
  tl 4608 7168 16 swapab_r64_t16_s3_w2_k1_p10 q16_deep_$rep
  tl 4608 7168 16 swapab_r64_t16_s3_w2_k1_p6 q16_budget_$rep
  tl 7168 16384 16 swapab_r56_t16_s1_w2_k1_p21 o16_deep_$rep
  tl 7168 16384 16 swapab_r56_t16_s1_w2_k1_p13 o16_budget_$rep
done
for f in $R/*_1.txt; do echo "== $(basename $f)"; grep -E "plan|entry|may load|first stage landed|mid stage (issued|landed)|math done|stored|exit" $f; done
tar -C $OUT -czf $OUT/run.tgz run
