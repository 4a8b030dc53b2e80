#!/usr/bin/env bash
# s22 call 2 (build-dev/COMMIT; its decode_timeline with the marks' mid-stage test made one compare):
# (1) timelines of warpgroup 0's middle stage at 64 and 32 tokens on 7168x16384, PDL off; (2) forced
# 64-token plans at M = 64 (ring depth, two-k-block stages, one warpgroup, two 32-token tiles), two
# shuffled rounds.
set -u
rm -rf build-dev && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
B=build-dev/bench/blockfp8-bench
for spec in "7168 16384 64" "7168 16384 32" "7168 16384 8" "2112 7168 64"; do
  set -- $spec
  BLOCKFP8_PDL=0 timeout 60 build-dev/bench/decode_timeline $1 $2 $3 > $R/tl_${1}x${2}_m$3.txt 2>&1
  echo "timeline $spec rc=$?" >> $S
done
CFG=""
for c in swapab_r64_t64_s1_w2_k1_p7 swapab_r64_t64_s1_w2_k1_p5 swapab_r64_t64_s1_w2_k1_p6 swapab_r64_t64_s1_w2_k1_p8 \
         swapab_r64_t64_s1_w2_k2_p3 swapab_r64_t64_s1_w2_k2_p4 swapab_r64_t64_s1_w1_k1_p7 swapab_r64_t64_s1_w1_k2_p3 \
         swapab_r64_t32_s1_w2_k2_p7 swapab_r64_t32_s1_w2_k1_p7; do CFG="$CFG --config $c"; done
timeout 400 $B --shape 7168,16384 --shape 7168,2048 --m 64 $CFG --config-rounds 2 --no-cublaslt --no-bf16a --no-constw \
  --json $R/forced_m64.jsonl > $R/forced_m64.txt 2>&1
echo "forced rc=$?" >> $S
python3 tools/forced_vs_dispatch.py $R/forced_m64.jsonl > $R/forced_m64.md 2>&1
cat $S $R/forced_m64.md
for f in $R/tl_7168x16384_m64.txt $R/tl_7168x16384_m32.txt; do head -24 $f; done
for f in $R/*.txt $R/*.jsonl; do [ $(stat -c %s $f) -gt 30000 ] && gzip -9 -n $f; done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
