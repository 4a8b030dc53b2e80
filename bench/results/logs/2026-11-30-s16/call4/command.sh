# s16 call 4: wip/tiled-scales-ahead. sa11 = the math warps read a stage's scales one k-block before
# using them + the producers wait with a suspend hint; sa10 = scales ahead only; sa01 = hint only;
# loo0 = main's kernel. GPU tests of sa11 first and one checked run, then interleaved twice.
set -u
R=$OUT/r; mkdir -p $R
X=build-dev-x
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 $X/sa11/blockfp8_gpu_tests --gtest_filter='TiledTest.*:ReliabilityTest.*:GemmTest.*:DispatchTest.*' > $R/sa11_tests.log 2>&1; echo "tests rc=$? $(tail -n 1 $R/sa11_tests.log)"
timeout 100 $X/sa11/blockfp8-bench --shape 2112,7168 --shape 7168,4096 --shape 4096,7168 --m 256,4096 --config tiled_t128_r192_p4_c1x1 --config tiled_t128_r128_p5_c2x1 --no-floor --no-bf16a --no-constw > $R/sa11_checked.txt 2>&1; echo "checked rc=$?"
CF="--config tiled_t128_r192_p4_c1x1 --config tiled_t128_r192_p4_c2x1 --config tiled_t128_r128_p5_c1x1 --config tiled_t128_r128_p5_c2x1"
COMMON="--no-cublaslt --no-floor --no-check --no-bf16a --no-constw --settle-ms 100 --replays 10"
for rep in 1 2; do
  for v in sa11 sa10 sa01 loo0; do
    timeout 100 $X/$v/blockfp8-bench --shape 2112,7168 --shape 4096,7168 --shape 24576,1536 --m 4096 $CF $COMMON --json $R/big_${v}_$rep.jsonl > /dev/null 2>&1 || echo "big $v $rep rc=$?"
    timeout 100 $X/$v/blockfp8-bench --shape 2112,7168 --shape 7168,4096 --shape 7168,16384 --m 256 $CF $COMMON --json $R/mid_${v}_$rep.jsonl > /dev/null 2>&1 || echo "mid $v $rep rc=$?"
  done
done
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
tar -C $OUT -czf $OUT/call4.tgz r; rm -rf $R
