# s16 call 14: wip/tiled-scale-tma (st: the scales by TMA with the operands where their layout allows,
# the scale warp's copies otherwise) against main at 256c57a (build-dev). GPU tests, memcheck of the
# tiled tests, one checked run (7168x2304: K / 128 = 18, the copy path), then the dispatcher's picks
# interleaved twice at M = 4096 and 256.
set -u
R=$OUT/r; mkdir -p $R
X=build-dev-x
timeout 90 $X/st/blockfp8_gpu_tests --gtest_filter='TiledTest.*:ReliabilityTest.*:GemmTest.*' > $R/st_tests.log 2>&1; echo "tests rc=$? $(tail -n 1 $R/st_tests.log)"
BLOCKFP8_TEST_TIMEOUT=50 timeout 55 compute-sanitizer --tool memcheck --error-exitcode 99 $X/st/blockfp8_gpu_tests --gtest_filter='TiledTest.*' > $R/st_memcheck.log 2>&1; echo "memcheck rc=$? $(tail -n 1 $R/st_memcheck.log)"
timeout 60 $X/st/blockfp8-bench --shape 2112,7168 --shape 7168,2304 --shape 24576,1536 --m 256,1024,4096 --no-floor --no-bf16a --no-constw > $R/st_checked.txt 2>&1; echo "checked rc=$?"
COMMON="--no-cublaslt --no-floor --no-check --no-bf16a --no-constw --settle-ms 100 --replays 10"
for rep in 1 2; do
  for v in st main; do
    B=$X/st/blockfp8-bench; [ $v = main ] && B=build-dev/bench/blockfp8-bench
    timeout 60 $B --shape 2112,7168 --shape 4096,7168 --shape 24576,1536 --shape 7168,4096 --shape 7168,16384 --m 256,4096 $COMMON --json $R/ab_${v}_$rep.jsonl > /dev/null 2>&1 || echo "ab $v $rep rc=$?"
  done
done
tar -C $OUT -czf $OUT/call14.tgz r; rm -rf $R
