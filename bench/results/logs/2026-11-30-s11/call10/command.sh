# s11 call 10: the warp-MMA fused A side with eight X loads a thread (M <= 2 at K = 7168 in one
# launch): fused GPU tests, memcheck and racecheck on the fused smoke test, bf16a one launch vs two.
set -u
R=$OUT/r; mkdir -p $R; T=build-dev/tests/blockfp8_gpu_tests; B=build-dev/bench/blockfp8-bench
timeout 120 $T --gtest_filter='Fused*:GemmTest.ForcedWarpMma*' > $R/gtest.log 2>&1; echo "gtest rc=$?"; tail -2 $R/gtest.log
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 99 $T --gtest_filter='FusedTest.SanitizerSmoke' > $R/$tool.log 2>&1; echo "$tool rc=$?"; tail -1 $R/$tool.log
done
timeout 120 $B --shape 2112,7168 --shape 4096,7168 --shape 3072,7168 --shape 1536,7168 --shape 3072,1536 --shape 4096,512 --m 1,2,4,8 --no-constw --no-cublaslt --json $R/bf16a.jsonl > $R/bf16a.log 2>&1; echo "bench rc=$?"
tar -C $OUT -czf $OUT/call10.tgz r
