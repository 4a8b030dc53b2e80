# s16 call 2: the tiled kernel's issue turn passed when the warpgroup's wgmma group has completed
# (wip/tiled-turn-after-wait) against main (loo0 = main's kernel), forced widths and the dispatcher,
# interleaved twice; its tiled GPU tests first, and one checked run.
set -u
R=$OUT/r; mkdir -p $R
X=build-dev-x
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 $X/turn/blockfp8_gpu_tests --gtest_filter='TiledTest.*:ReliabilityTest.*:GemmTest.*' > $R/turn_tests.log 2>&1; echo "tests rc=$? $(tail -n 1 $R/turn_tests.log)"
CF="--config tiled_t128_r192_p4_c1x1 --config tiled_t128_r192_p4_c2x1 --config tiled_t128_r128_p5_c1x1 --config tiled_t128_r128_p5_c2x1"
COMMON="--no-cublaslt --no-floor --no-bf16a --no-constw --settle-ms 100 --replays 10"
timeout 100 $X/turn/blockfp8-bench --shape 2112,7168 --shape 7168,4096 --m 256,4096 $CF --no-floor --no-bf16a --no-constw > $R/turn_checked.txt 2>&1; echo "checked rc=$? $(grep -c 'rel_err\|FAIL\|error' $R/turn_checked.txt)"
for rep in 1 2; do
  for v in turn loo0; do
    timeout 100 $X/$v/blockfp8-bench --shape 2112,7168 --shape 4096,7168 --shape 24576,1536 --m 4096 $CF $COMMON --no-check --json $R/big_${v}_$rep.jsonl > /dev/null 2>&1 || echo "big $v $rep rc=$?"
    timeout 100 $X/$v/blockfp8-bench --shape 2112,7168 --shape 7168,4096 --shape 7168,16384 --m 256 $CF $COMMON --no-check --json $R/mid_${v}_$rep.jsonl > /dev/null 2>&1 || echo "mid $v $rep rc=$?"
  done
done
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
tar -C $OUT -czf $OUT/call2.tgz r; rm -rf $R
