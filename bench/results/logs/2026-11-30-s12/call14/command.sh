# s12 call 14: the warp-MMA kernel's width again (warps x ring), now that its strips walk K staggered
# and refill each slot before the math: forced configurations in shuffled rounds (--config-rounds 3),
# 16-row strips on 2112x7168 and 1536x7168, 32-row strips on 4096x7168 and 3072x7168, M = 1, 4, 8.
set -u
R=$OUT/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench
C16=""; for c in w2_k4 w2_k2 w2_k8 w3_k4 w4_k2 w4_k4 w1_k8 w3_k2; do C16="$C16 --config warpmma_r16_t8_s1_$c"; done
C32=""; for c in w2_k2 w2_k4 w1_k4 w3_k2 w4_k2 w1_k2; do C32="$C32 --config warpmma_r32_t8_s1_$c"; done
for nk in 2112,7168 1536,7168; do
  timeout 120 $B --shape $nk --m 1,4,8 --no-bf16a --no-constw --no-cublaslt --no-floor --config-rounds 3 $C16 --json $R/w_${nk/,/x}.jsonl > $R/w_${nk/,/x}.log 2>&1; echo "$nk rc=$?"
done
for nk in 4096,7168 3072,7168; do
  timeout 120 $B --shape $nk --m 1,4,8 --no-bf16a --no-constw --no-cublaslt --no-floor --config-rounds 3 $C32 --json $R/w_${nk/,/x}.jsonl > $R/w_${nk/,/x}.log 2>&1; echo "$nk rc=$?"
done
tar -C $OUT -czf $OUT/call14.tgz r
