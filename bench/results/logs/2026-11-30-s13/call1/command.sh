# s13 call 1: tiled split-K over clusters of 5-8 (kTiledMaxSplitK 4 -> 8): its GPU tests and sanitizers,
# then forced configurations in shuffled rounds at M = 64-256 on five long-K shapes; and the warp-MMA
# kernel's 16- and 32-token tiles at M = 9-32 now that its strips walk K staggered (s12), forced.
set -u
R=$OUT/r; mkdir -p $R; T=build-dev/tests/blockfp8_gpu_tests; B=build-dev/bench/blockfp8-bench
timeout 150 $T --gtest_filter='TiledTest.*' > $R/gtest.log 2>&1; echo "gtest rc=$?"; tail -1 $R/gtest.log
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 $T --gtest_filter='TiledTest.SplitKWideClusters' > $R/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -2 $R/memcheck.log
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 99 $T --gtest_filter='TiledTest.SplitKWideClusters' > $R/racecheck.log 2>&1; echo "racecheck rc=$?"; tail -2 $R/racecheck.log
CT=""; for c in r96_p0_c1x1_k6 r96_p0_c1x1_k8 r128_p0_c1x1_k5 r128_p0_c1x1_k7 r128_p0_c1x1_k8 r144_p0_c1x1_k4 r144_p0_c1x1_k6 r144_p0_c1x1_k8 r176_p0_c1x1_k5 r176_p0_c1x1_k8 r192_p0_c1x1_k6 r192_p0_c1x1_k8 r64_p0_c1x1_k8; do CT="$CT --config tiled_t128_$c"; done
for nk in 2112,7168 1536,7168 4096,7168 3072,7168 576,7168; do
  timeout 150 $B --shape $nk --m 64,96,128,192,256 --no-bf16a --no-constw --no-floor --config-rounds 3 $CT --json $R/t_${nk/,/x}.jsonl > $R/t_${nk/,/x}.log 2>&1; echo "tiled $nk rc=$?"
done
CW=""; for c in r16_t16_s1_w2_k4 r16_t16_s1_w4_k4 r32_t16_s1_w2_k4 r16_t32_s1_w2_k2 r32_t32_s1_w2_k2 r16_t32_s1_w1_k2; do CW="$CW --config warpmma_$c"; done
for nk in 2112,7168 4096,7168 1536,7168 3072,7168; do
  timeout 120 $B --shape $nk --m 9,12,16,24,32 --no-bf16a --no-constw --no-cublaslt --config-rounds 3 $CW --json $R/w_${nk/,/x}.jsonl > $R/w_${nk/,/x}.log 2>&1; echo "warpmma $nk rc=$?"
done
tar -C $OUT -czf $OUT/call1.tgz r
