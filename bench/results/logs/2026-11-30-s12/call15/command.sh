# s12 call 15: ring 2 against ring 4 for the 16-row warp-MMA strips at M = 3-8 (call 14: ring 2 won
# at M = 8 by 2.0-2.4 %), shuffled rounds, 2112x7168 and 1536x7168.
set -u
R=$OUT/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench
for nk in 2112,7168 1536,7168; do
  timeout 120 $B --shape $nk --m 3,4,5,6,7,8 --no-bf16a --no-constw --no-cublaslt --no-floor --config-rounds 3 \
    --config warpmma_r16_t8_s1_w2_k2 --config warpmma_r16_t8_s1_w2_k4 --json $R/r_${nk/,/x}.jsonl > $R/r_${nk/,/x}.log 2>&1; echo "$nk rc=$?"
done
tar -C $OUT -czf $OUT/call15.tgz r
