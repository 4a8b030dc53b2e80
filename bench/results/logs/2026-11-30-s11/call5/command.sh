# s11 call 5: the warp-MMA kernel's fused A side (blockfp8_gemm_bf16a in one launch at M <= 8):
# GPU tests (fused, warp-MMA, GEMM), compute-sanitizer on the fused smoke test, the fuzzer (its
# warp-MMA draws now fit shared memory), and bf16a one launch vs two on the warp-MMA shapes.
set -u
R=$OUT/r; mkdir -p $R; T=build-dev/tests/blockfp8_gpu_tests; B=build-dev/bench/blockfp8-bench
timeout 200 $T --gtest_filter='Fused*:GemmTest.*:Reliability*' > $R/gtest.log 2>&1; echo "gtest rc=$?"; tail -3 $R/gtest.log
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 $T --gtest_filter='FusedTest.SanitizerSmoke:GemmTest.ForcedWarpMmaLayouts' > $R/$tool.log 2>&1; echo "$tool rc=$?"; tail -2 $R/$tool.log
done
timeout 200 build-dev/tests/blockfp8_fuzz --cases 2000 --max-seconds 150 > $R/fuzz.log 2>&1; echo "fuzz rc=$?"; tail -2 $R/fuzz.log
timeout 120 $B --shape 2112,7168 --shape 4096,7168 --shape 3072,1536 --shape 1536,7168 --shape 576,7168 --m 1,2,4,8,16 --no-constw --no-cublaslt --json $R/bf16a.jsonl > $R/bf16a.log 2>&1; echo "bench rc=$?"
tar -C $OUT -czf $OUT/call5.tgz r
