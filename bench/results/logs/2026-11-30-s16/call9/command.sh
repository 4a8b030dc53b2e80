# s16 call 9: is the tiled k-block paced by its scale copies? Slopes (time per k-block, 2112xK at
# M = 256, K = 4096 and 16384, one tile an SM) of wip/tiled-loo builds: 0 main's kernel, 2 no operand
# loads, 9 no operand loads and no scale copies (the scale warp only arrives), 10 operands loaded but
# no scale copies, 5 the consumer alone; and ca (wip/tiled-carried-addr). Then M = 4096 for 10 and 0.
set -u
R=$OUT/r; mkdir -p $R
X=build-dev-x
COMMON="--no-cublaslt --no-floor --no-check --no-bf16a --no-constw --settle-ms 100 --replays 10"
for rep in 1 2; do
  for v in loo0 loo2 loo9 loo10 loo5 ca; do
    timeout 100 $X/$v/blockfp8-bench --shape 2112,4096 --shape 2112,16384 --m 256 --config tiled_t128_r192_p4_c1x1 --config tiled_t128_r128_p5_c1x1 --config tiled_t128_r128_p5_c2x1 $COMMON --json $R/slope_${v}_$rep.jsonl > /dev/null 2>&1 || echo "slope $v $rep rc=$?"
  done
  for v in loo10 loo0; do
    timeout 100 $X/$v/blockfp8-bench --shape 2112,7168 --shape 4096,7168 --m 4096 --config tiled_t128_r192_p4_c2x1 --config tiled_t128_r128_p5_c2x1 $COMMON --json $R/big_${v}_$rep.jsonl > /dev/null 2>&1 || echo "big $v $rep rc=$?"
  done
done
tar -C $OUT -czf $OUT/call9.tgz r; rm -rf $R
