# s16 call 10: wip/tiled-scale-ring (sr: the scales in a ring of 8 slots with their own barriers, on
# top of the carried addresses) against main's kernel (loo0) and ca (carried addresses only). GPU tests,
# racecheck and memcheck of the tiled tests, one checked run; then interleaved twice: M = 4096 and 256
# (forced widths and the dispatcher) and the k-block slope at one tile an SM.
set -u
R=$OUT/r; mkdir -p $R
X=build-dev-x
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 120 $X/sr/blockfp8_gpu_tests --gtest_filter='TiledTest.*:ReliabilityTest.*:GemmTest.*:FusedTest.*' > $R/sr_tests.log 2>&1; echo "tests rc=$? $(tail -n 1 $R/sr_tests.log)"
BLOCKFP8_TEST_TIMEOUT=100 timeout 110 compute-sanitizer --tool racecheck --error-exitcode 99 $X/sr/blockfp8_gpu_tests --gtest_filter='TiledTest.EveryWeightRowsWithTails:ReliabilityTest.SanitizerSmoke' > $R/sr_racecheck.log 2>&1; echo "racecheck rc=$? $(tail -n 1 $R/sr_racecheck.log)"
BLOCKFP8_TEST_TIMEOUT=100 timeout 110 compute-sanitizer --tool memcheck --error-exitcode 99 $X/sr/blockfp8_gpu_tests --gtest_filter='TiledTest.*' > $R/sr_memcheck.log 2>&1; echo "memcheck rc=$? $(tail -n 1 $R/sr_memcheck.log)"
timeout 100 $X/sr/blockfp8-bench --shape 2112,7168 --shape 7168,4096 --shape 4096,7168 --shape 24576,1536 --m 256,1024,4096 --config tiled_t128_r192_p4_c1x1 --config tiled_t128_r128_p5_c2x1 --config tiled_t128_r144_p5_c1x1_k4 --no-floor --no-bf16a --no-constw > $R/sr_checked.txt 2>&1; echo "checked rc=$?"
CF="--config tiled_t128_r192_p4_c1x1 --config tiled_t128_r192_p4_c2x1 --config tiled_t128_r128_p5_c1x1 --config tiled_t128_r128_p5_c2x1"
COMMON="--no-cublaslt --no-floor --no-check --no-bf16a --no-constw --settle-ms 100 --replays 10"
for rep in 1 2; do
  for v in sr ca loo0; do
    timeout 100 $X/$v/blockfp8-bench --shape 2112,7168 --shape 4096,7168 --shape 24576,1536 --m 4096 $CF $COMMON --json $R/big_${v}_$rep.jsonl > /dev/null 2>&1 || echo "big $v $rep rc=$?"
    timeout 100 $X/$v/blockfp8-bench --shape 2112,7168 --shape 7168,4096 --shape 7168,16384 --m 256 $CF $COMMON --json $R/mid_${v}_$rep.jsonl > /dev/null 2>&1 || echo "mid $v $rep rc=$?"
  done
done
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
tar -C $OUT -czf $OUT/call10.tgz r; rm -rf $R
