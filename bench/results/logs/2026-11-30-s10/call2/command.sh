# s10 call 2: call 1 again without its mistakes (the SplitK case 640x576 at 80 rows needs 40 clusters of
# 3, more than the H200 holds: now 512x576; the bench has no --config 0). Call 1's A/B and timing-mode
# parts are not repeated.
set -u
R=$OUT/r; mkdir -p $R
S=build-dev/splitk; M=build-dev/bench/blockfp8-bench
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.draw --format=csv,noheader
# 1. The branch's tiled tests, then the sanitizers on its split cases.
timeout 150 $S/blockfp8_gpu_tests --gtest_filter='TiledTest.*:ReliabilityTest.SanitizerSmoke' > $R/splitk_tests.log 2>&1; echo "tests rc=$? $(tail -n 1 $R/splitk_tests.log)"
BLOCKFP8_TEST_TIMEOUT=100 timeout 110 compute-sanitizer --tool memcheck --error-exitcode 99 $S/blockfp8_gpu_tests --gtest_filter='TiledTest.SplitK:ReliabilityTest.SanitizerSmoke' > $R/splitk_memcheck.log 2>&1; echo "memcheck rc=$? $(tail -n 1 $R/splitk_memcheck.log)"
# 2. Split against main's picks, forced, in one process of the branch, shuffled rounds, settled.
X="--m 256,384,512,640 --no-floor --no-bf16a --no-constw --config-rounds 3 --settle-ms 100"
T=tiled_t128
$S/blockfp8-bench --shape 1536,7168 $X --config ${T}_r64_p8_c2x1 --config ${T}_r64_p8_c1x1 --config ${T}_r160_p5_c1x1_k4 --config ${T}_r192_p4_c1x1_k4 --config ${T}_r192_p4_c1x1_k3 --json $R/split_1536.jsonl > $R/split_1536.log 2>&1; echo "1536 rc=$?"
$S/blockfp8-bench --shape 2112,7168 $X --config ${T}_r64_p8_c2x1 --config ${T}_r96_p7_c2x1 --config ${T}_r160_p5_c1x1_k3 --config ${T}_r192_p4_c1x1_k3 --json $R/split_2112.jsonl > $R/split_2112.log 2>&1; echo "2112 rc=$?"
$S/blockfp8-bench --shape 3072,7168 $X --config ${T}_r64_p8_c2x1 --config ${T}_r80_p7_c1x1 --config ${T}_r192_p4_c1x1_k4 --config ${T}_r144_p5_c1x1_k2 --json $R/split_3072.jsonl > $R/split_3072.log 2>&1; echo "3072 rc=$?"
$S/blockfp8-bench --shape 4096,7168 --shape 4608,7168 $X --config ${T}_r64_p8_c2x1 --config ${T}_r80_p7_c2x1 --config ${T}_r192_p4_c1x1_k3 --config ${T}_r144_p5_c1x1_k2 --json $R/split_4096.jsonl > $R/split_4096.log 2>&1; echo "4096 rc=$?"
tar -C $OUT -czf $OUT/call2.tgz r; rm -rf $R
