# s10 call 4: the split-K branch with the tiled kernel from a third of the SMs' worth of decode tiles
# (where it splits): TiledTest, and the dispatcher against the decode kernel it replaced, forced.
set -u
B=build-dev/bench/blockfp8-bench
timeout 150 build-dev/tests/blockfp8_gpu_tests --gtest_filter='TiledTest.*:Dispatch*:ReliabilityTest.SanitizerSmoke' 2>&1 | tail -n 3
$B --shape 1536,7168 --shape 2112,7168 --m 129,192,256 --no-floor --no-bf16a --no-constw --settle-ms 100 \
  --config swapab_r64_t128_s2_w2_k1_p5 --config-rounds 3 2>&1 | grep -E '^\| [0-9]'
