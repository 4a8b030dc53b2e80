# s11 call 3: the warp-MMA kernel's width (warps x ring) and the one-CTA-an-SM spread (shared memory
# padded past half an SM when the grid fits one round), on the shapes the dispatcher now gives it,
# spread on and off (BLOCKFP8_WARPMMA_SPREAD=0), against the dispatcher and the floor. Cold L2.
set -u
R=$OUT/r; mkdir -p $R; T=build-dev/tests/blockfp8_gpu_tests; B=build-dev/bench/blockfp8-bench
timeout 120 $T --gtest_filter='GemmTest.ForcedWarpMma*:GemmTest.DispatcherShapes:GemmTest.PlanAndAutoAgree' > $R/gtest.log 2>&1; echo "gtest rc=$?"; tail -2 $R/gtest.log
C16=""; for c in r16_t8_s1_w2_k4 r16_t8_s1_w3_k4 r16_t8_s1_w4_k4 r16_t8_s1_w2_k2 r16_t8_s1_w4_k2 r16_t8_s1_w2_k8; do C16="$C16 --config warpmma_$c"; done
C32=""; for c in r32_t8_s1_w2_k4 r32_t8_s1_w1_k4 r32_t8_s1_w2_k2 r32_t8_s1_w3_k2 r32_t8_s1_w4_k2; do C32="$C32 --config warpmma_$c"; done
for spread in 1 0; do
  for nk in 2112,7168 1536,7168; do
    BLOCKFP8_WARPMMA_SPREAD=$spread timeout 40 $B --shape $nk --m 1,4,8 --no-bf16a --no-constw --no-cublaslt $C16 --json $R/sp${spread}_${nk/,/x}.jsonl > $R/sp${spread}_${nk/,/x}.log 2>&1; echo "$spread $nk rc=$?"
  done
  for nk in 4096,7168 3072,1536 4096,512; do
    BLOCKFP8_WARPMMA_SPREAD=$spread timeout 40 $B --shape $nk --m 1,4,8 --no-bf16a --no-constw --no-cublaslt $C32 --json $R/sp${spread}_${nk/,/x}.jsonl > $R/sp${spread}_${nk/,/x}.log 2>&1; echo "$spread $nk rc=$?"
  done
done
tar -C $OUT -czf $OUT/call3.tgz r
