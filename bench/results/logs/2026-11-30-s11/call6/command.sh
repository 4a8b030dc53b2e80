# s11 call 6: the warp-MMA fused A side with the X loads issued before the weight copies, one pass:
# fused GPU tests, compute-sanitizer on the fused smoke test, bf16a one launch vs two.
set -u
R=$OUT/r; mkdir -p $R; T=build-dev/tests/blockfp8_gpu_tests; B=build-dev/bench/blockfp8-bench
timeout 200 $T --gtest_filter='Fused*' > $R/gtest.log 2>&1; echo "gtest rc=$?"; tail -2 $R/gtest.log
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 $T --gtest_filter='FusedTest.SanitizerSmoke' > $R/$tool.log 2>&1; echo "$tool rc=$?"; tail -1 $R/$tool.log
done
timeout 120 $B --shape 2112,7168 --shape 4096,7168 --shape 3072,1536 --shape 1536,7168 --shape 4096,512 --m 1,2,4,8 --no-constw --no-cublaslt --no-floor --json $R/bf16a.jsonl > $R/bf16a.log 2>&1; echo "bench rc=$?"
tar -C $OUT -czf $OUT/call6.tgz r
