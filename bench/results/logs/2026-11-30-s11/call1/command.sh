# s11 call 1: the new warp-MMA decode kernel (src/kernels/swapab_warpmma.cu), forced: its GPU tests,
# compute-sanitizer memcheck + racecheck, then every instantiation against the dispatcher's pick and
# the floor at M = 1..32 on nine decode shapes (cold L2, one process per shape).
set -u
R=$OUT/r; mkdir -p $R; T=build-dev/tests/blockfp8_gpu_tests; B=build-dev/bench/blockfp8-bench
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv > $R/gpu.txt
timeout 200 $T --gtest_filter='GemmTest.ForcedWarpMma*:GemmTest.Padding:Dispatch*' > $R/gtest.log 2>&1; echo "gtest rc=$?"; tail -3 $R/gtest.log
timeout 90 compute-sanitizer --tool memcheck $T --gtest_filter='GemmTest.ForcedWarpMmaLayouts' > $R/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -2 $R/memcheck.log
timeout 90 compute-sanitizer --tool racecheck $T --gtest_filter='GemmTest.ForcedWarpMmaLayouts' > $R/racecheck.log 2>&1; echo "racecheck rc=$?"; tail -2 $R/racecheck.log
C=""
for c in r16_t8_s1_w2_k8 r16_t8_s1_w1_k8 r16_t8_s1_w2_k4 r16_t8_s1_w4_k2 r16_t8_s1_w2_k2 r32_t8_s2_w2_k2 r16_t8_s2_w2_k8 r16_t8_s3_w2_k4 \
         r16_t16_s1_w4_k2 r16_t16_s1_w2_k2 r32_t16_s2_w2_k2 r16_t32_s1_w2_k2 r32_t32_s2_w2_k1; do C="$C --config warpmma_$c"; done
for nk in 2112,7168 576,7168 4096,7168 7168,2048 3072,1536 4096,512 4608,7168 7168,16384 1536,7168; do
  timeout 45 $B --shape $nk --m 1,2,4,8,16,32 --no-bf16a --no-constw --no-cublaslt $C --json $R/wm_${nk/,/x}.jsonl > $R/wm_${nk/,/x}.log 2>&1; echo "$nk rc=$?"
done
tar -C $OUT -czf $OUT/call1.tgz r
