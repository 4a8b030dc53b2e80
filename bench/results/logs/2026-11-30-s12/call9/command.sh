# s12 call 9: does the staggered K walk cost the warp-MMA kernel's fused form (bf16a one launch at
# M = 1 measured 7.60 us in call 8 against 7.39 in s11's run)? BLOCKFP8_WARPMMA_ROTATE=1 / 0,
# interleaved, twice each, bf16a and quantiser + GEMM, on the shapes where one launch serves.
set -u
R=$OUT/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench
S="--shape 2112,7168 --shape 1536,7168 --shape 4096,7168 --shape 3072,7168 --shape 3072,1536 --shape 4096,512"
for rep in 1 2; do
  for v in 1 0; do
    BLOCKFP8_WARPMMA_ROTATE=$v timeout 200 $B $S --m 1,2,4 --no-floor --no-cublaslt --no-constw --no-check --json $R/rot${v}_$rep.jsonl > /dev/null 2>&1; echo "rot=$v $rep rc=$?"
  done
done
tar -C $OUT -czf $OUT/call9.tgz r
