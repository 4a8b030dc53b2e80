# s13 call 7: the tiled split kernel's time against K at a fixed split (k-blocks a CTA = K / 128 / split),
# cold and hot: the intercept is what a call costs besides its k-blocks (launch, prologue, first
# loads, the DSMEM sum, the store). M = 128, N = 576 and 2112, K = 1024-7168; unsplit for comparison.
set -u
R=/tmp/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench
C=""; for c in r192_p0_c1x1_k8 r64_p0_c1x1_k8 r144_p0_c1x1_k8 r144_p0_c1x1_k1 r64_p0_c1x1_k1 r144_p0_c1x1_k2 r144_p0_c1x1_k4; do C="$C --config tiled_t128_$c"; done
for n in 576 2112; do
  timeout 150 $B --shape $n,1024 --shape $n,2048 --shape $n,4096 --shape $n,7168 --m 128 --no-bf16a --no-constw --no-cublaslt --config-rounds 3 $C --json $R/k_$n.jsonl > $R/k_$n.log 2>&1; echo "$n rc=$?"
done
tar -C /tmp -czf $OUT/call7.tgz r
