# s16 call 8: wip/tiled-carried-addr (ca): the math threads carry their A descriptor, scale address and
# peer barrier from stage to stage instead of re-deriving them from %tid each k-block, against main's
# kernel (loo0). GPU tests and one checked run first; then interleaved twice (M = 4096 and 256, forced
# widths and the dispatcher), and the k-block slope at one tile an SM.
set -u
R=$OUT/r; mkdir -p $R
X=build-dev-x
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 $X/ca/blockfp8_gpu_tests --gtest_filter='TiledTest.*:ReliabilityTest.*:GemmTest.*' > $R/ca_tests.log 2>&1; echo "tests rc=$? $(tail -n 1 $R/ca_tests.log)"
timeout 100 $X/ca/blockfp8-bench --shape 2112,7168 --shape 7168,4096 --shape 4096,7168 --m 256,4096 --config tiled_t128_r192_p4_c1x1 --config tiled_t128_r128_p5_c2x1 --no-floor --no-bf16a --no-constw > $R/ca_checked.txt 2>&1; echo "checked rc=$?"
CF="--config tiled_t128_r192_p4_c1x1 --config tiled_t128_r192_p4_c2x1 --config tiled_t128_r128_p5_c1x1 --config tiled_t128_r128_p5_c2x1"
COMMON="--no-cublaslt --no-floor --no-check --no-bf16a --no-constw --settle-ms 100 --replays 10"
for rep in 1 2; do
  for v in ca loo0; do
    timeout 100 $X/$v/blockfp8-bench --shape 2112,7168 --shape 4096,7168 --shape 24576,1536 --m 4096 $CF $COMMON --json $R/big_${v}_$rep.jsonl > /dev/null 2>&1 || echo "big $v $rep rc=$?"
    timeout 100 $X/$v/blockfp8-bench --shape 2112,7168 --shape 7168,4096 --shape 7168,16384 --m 256 $CF $COMMON --json $R/mid_${v}_$rep.jsonl > /dev/null 2>&1 || echo "mid $v $rep rc=$?"
    timeout 100 $X/$v/blockfp8-bench --shape 2112,4096 --shape 2112,16384 --m 256 --config tiled_t128_r192_p4_c1x1 --config tiled_t128_r128_p5_c1x1 $COMMON --json $R/slope_${v}_$rep.jsonl > /dev/null 2>&1 || echo "slope $v $rep rc=$?"
  done
done
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
tar -C $OUT -czf $OUT/call8.tgz r; rm -rf $R
