# s16 call 11: what in the scale copies costs. On the scale ring (sr): sc1 = the scale warp loads
# (ld.global) and stores to shared memory instead of cp.async; sc2 = cp.async as sr but every copy from
# token row 0's line (diagnostic, wrong results); against sr and main's kernel (loo0). One checked run
# of sc1, then the k-block slope at one tile an SM and M = 4096, interleaved twice.
set -u
R=$OUT/r; mkdir -p $R
X=build-dev-x
timeout 100 $X/sc1/blockfp8-bench --shape 2112,7168 --shape 7168,4096 --shape 24576,1536 --m 256,4096 --config tiled_t128_r192_p4_c1x1 --config tiled_t128_r128_p5_c2x1 --no-floor --no-bf16a --no-constw > $R/sc1_checked.txt 2>&1; echo "checked rc=$?"
COMMON="--no-cublaslt --no-floor --no-check --no-bf16a --no-constw --settle-ms 100 --replays 10"
for rep in 1 2; do
  for v in sc1 sc2 sr loo0; do
    timeout 100 $X/$v/blockfp8-bench --shape 2112,4096 --shape 2112,16384 --m 256 --config tiled_t128_r192_p4_c1x1 --config tiled_t128_r128_p5_c1x1 $COMMON --json $R/slope_${v}_$rep.jsonl > /dev/null 2>&1 || echo "slope $v $rep rc=$?"
    timeout 100 $X/$v/blockfp8-bench --shape 2112,7168 --shape 4096,7168 --m 4096 --config tiled_t128_r192_p4_c2x1 --config tiled_t128_r128_p5_c2x1 $COMMON --json $R/big_${v}_$rep.jsonl > /dev/null 2>&1 || echo "big $v $rep rc=$?"
  done
done
tar -C $OUT -czf $OUT/call11.tgz r; rm -rf $R
