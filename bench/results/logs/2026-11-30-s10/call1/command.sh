# s10 call 1: wip/tiled-splitk (rebased on 384bc81 as 42a7d44) tested and timed; the timing mode checked.
set -u
R=$OUT/r; mkdir -p $R
S=build-dev/splitk; M=build-dev/bench/blockfp8-bench
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.draw --format=csv,noheader
# 1. The branch's tiled tests, then the sanitizers on its split cases.
timeout 150 $S/blockfp8_gpu_tests --gtest_filter='TiledTest.*:ReliabilityTest.SanitizerSmoke' > $R/splitk_tests.log 2>&1; echo "tests rc=$? $(tail -n 1 $R/splitk_tests.log)"
BLOCKFP8_TEST_TIMEOUT=100 timeout 110 compute-sanitizer --tool memcheck --error-exitcode 99 $S/blockfp8_gpu_tests --gtest_filter='TiledTest.SplitK:ReliabilityTest.SanitizerSmoke' > $R/splitk_memcheck.log 2>&1; echo "memcheck rc=$? $(tail -n 1 $R/splitk_memcheck.log)"
BLOCKFP8_TEST_TIMEOUT=120 timeout 130 compute-sanitizer --tool racecheck --error-exitcode 99 $S/blockfp8_gpu_tests --gtest_filter='ReliabilityTest.SanitizerSmoke' > $R/splitk_racecheck.log 2>&1; echo "racecheck rc=$? $(tail -n 1 $R/splitk_racecheck.log)"
# 2. Split against main's picks, forced, in one process of the branch, shuffled rounds, settled.
X="--m 256,384,512,640 --no-floor --no-bf16a --no-constw --config-rounds 3 --settle-ms 100 --config 0"
T=tiled_t128
$S/blockfp8-bench --shape 1536,7168 $X --config ${T}_r64_p8_c2x1 --config ${T}_r64_p8_c1x1 --config ${T}_r160_p5_c1x1_k4 --config ${T}_r192_p4_c1x1_k4 --config ${T}_r192_p4_c1x1_k3 --json $R/split_1536.jsonl > $R/split_1536.log 2>&1; echo "1536 rc=$?"
$S/blockfp8-bench --shape 2112,7168 $X --config ${T}_r64_p8_c2x1 --config ${T}_r96_p7_c2x1 --config ${T}_r160_p5_c1x1_k3 --config ${T}_r192_p4_c1x1_k3 --json $R/split_2112.jsonl > $R/split_2112.log 2>&1; echo "2112 rc=$?"
$S/blockfp8-bench --shape 3072,7168 $X --config ${T}_r64_p8_c2x1 --config ${T}_r80_p7_c1x1 --config ${T}_r192_p4_c1x1_k4 --config ${T}_r144_p5_c1x1_k2 --json $R/split_3072.jsonl > $R/split_3072.log 2>&1; echo "3072 rc=$?"
$S/blockfp8-bench --shape 4096,7168 --shape 4608,7168 $X --config ${T}_r64_p8_c2x1 --config ${T}_r80_p7_c2x1 --config ${T}_r192_p4_c1x1_k3 --config ${T}_r144_p5_c1x1_k2 --json $R/split_4096.jsonl > $R/split_4096.log 2>&1; echo "4096 rc=$?"
# 3. Unsplit points: the branch's dispatcher against main's, interleaved, settled.
OUT=$R bash tools/binary_ab.sh unsplit $S/blockfp8-bench $M --shape 2112,7168 --shape 7168,16384 --shape 24576,1536 --m 1024,4096 --no-cublaslt --no-floor --settle-ms 100 | tail -n 12
# 4. The timing mode: one forced config, rounds, settled or not, across M lists.
for ml in 512 256,512 512,1024; do for s in 0 100; do
  echo "m=$ml settle=$s: $($M --shape 7168,16384 --m $ml --no-cublaslt --no-floor --no-bf16a --no-constw --no-check --config tiled_t128_r112_p6_c2x1 --config-rounds 3 --settle-ms $s 2>/dev/null | grep ' 512 ' | grep 'blockfp8:' | awk -F'|' '{printf "%s %s", $4, $5}')"
done; done
tar -C $OUT -czf $OUT/call1.tgz r; rm -rf $R
