# s11 call 2: the warp-MMA kernel rebuilt on per-thread cp.async rings (each thread keeps S k-blocks of
# its own copies in flight, no registers held by loads): tests, memcheck, racecheck, then the forced
# sweep of call 1 with the new configurations (cold L2, one process per shape).
set -u
R=$OUT/r; mkdir -p $R; T=build-dev/tests/blockfp8_gpu_tests; B=build-dev/bench/blockfp8-bench
timeout 200 $T --gtest_filter='GemmTest.ForcedWarpMma*:GemmTest.Padding' > $R/gtest.log 2>&1; echo "gtest rc=$?"; tail -3 $R/gtest.log
timeout 90 compute-sanitizer --tool memcheck $T --gtest_filter='GemmTest.ForcedWarpMmaLayouts' > $R/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -2 $R/memcheck.log
timeout 90 compute-sanitizer --tool racecheck $T --gtest_filter='GemmTest.ForcedWarpMmaLayouts' > $R/racecheck.log 2>&1; echo "racecheck rc=$?"; tail -2 $R/racecheck.log
C=""
for c in r16_t8_s1_w2_k8 r16_t8_s1_w4_k4 r16_t8_s1_w2_k4 r16_t8_s1_w1_k8 r16_t8_s1_w1_k4 r32_t8_s1_w2_k4 r32_t8_s2_w2_k4 \
         r16_t8_s2_w2_k4 r16_t8_s3_w2_k4 r16_t8_s4_w1_k8 r16_t16_s1_w2_k4 r16_t16_s1_w4_k4 r32_t16_s2_w2_k4 r16_t32_s1_w2_k2 r32_t32_s2_w2_k2; do
  C="$C --config warpmma_$c"; done
for nk in 2112,7168 576,7168 4096,7168 7168,2048 3072,1536 4096,512 4608,7168 7168,16384 1536,7168; do
  timeout 50 $B --shape $nk --m 1,2,4,8,16,32 --no-bf16a --no-constw --no-cublaslt $C --json $R/wm_${nk/,/x}.jsonl > $R/wm_${nk/,/x}.log 2>&1; echo "$nk rc=$?"
done
tar -C $OUT -czf $OUT/call2.tgz r
