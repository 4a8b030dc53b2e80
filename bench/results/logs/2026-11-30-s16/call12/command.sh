# s16 call 12: loo10 (no scale copies) ran at 0.67-0.70x; no real copy scheme did (calls 10-11). Which
# part matters: loo11 = the scale warp stores constants to shared memory (no global loads); loo12 =
# main's copies but the math warps multiply by constants (no shared reads of the scales); loo10 and
# main (loo0) again. Slopes at one tile an SM, and M = 4096, interleaved twice.
set -u
R=$OUT/r; mkdir -p $R
X=build-dev-x
COMMON="--no-cublaslt --no-floor --no-check --no-bf16a --no-constw --settle-ms 100 --replays 10"
for rep in 1 2; do
  for v in loo11 loo12 loo10 loo0; do
    timeout 100 $X/$v/blockfp8-bench --shape 2112,4096 --shape 2112,16384 --m 256 --config tiled_t128_r192_p4_c1x1 --config tiled_t128_r128_p5_c1x1 $COMMON --json $R/slope_${v}_$rep.jsonl > /dev/null 2>&1 || echo "slope $v $rep rc=$?"
    timeout 100 $X/$v/blockfp8-bench --shape 2112,7168 --m 4096 --config tiled_t128_r192_p4_c2x1 --config tiled_t128_r128_p5_c2x1 $COMMON --json $R/big_${v}_$rep.jsonl > /dev/null 2>&1 || echo "big $v $rep rc=$?"
  done
done
tar -C $OUT -czf $OUT/call12.tgz r; rm -rf $R
