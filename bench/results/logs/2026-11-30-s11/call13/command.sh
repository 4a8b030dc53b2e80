# s11 call 13 (branch wip/warpmma-line-copies): warp-MMA copies of whole 128-byte lines, swizzled
# slots, one scale copy a k-block. Tests and racecheck first (lanes now read each other's copies),
# then the branch against main, interleaved (tools/binary_ab.sh), on the shapes the kernel serves.
set -u
R=$OUT/r; mkdir -p $R; T=build-dev/tests/blockfp8_gpu_tests
timeout 120 $T --gtest_filter='GemmTest.ForcedWarpMma*:GemmTest.Padding:GemmTest.DispatcherShapes:Fused*' > $R/gtest.log 2>&1; echo "gtest rc=$?"; tail -2 $R/gtest.log
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 99 $T --gtest_filter='GemmTest.ForcedWarpMmaLayouts:FusedTest.SanitizerSmoke' > $R/$tool.log 2>&1; echo "$tool rc=$?"; tail -1 $R/$tool.log
done
OUT=$R timeout 150 bash tools/binary_ab.sh lines build-dev/bench/blockfp8-bench build-dev/bench/blockfp8-bench-main \
  --shape 2112,7168 --shape 1536,7168 --shape 4096,7168 --shape 3072,7168 --shape 3072,1536 --shape 4096,512 \
  --m 1,2,4,8 --no-cublaslt --no-floor > $R/ab.log 2>&1; echo "ab rc=$?"; tail -30 $R/lines_ab.md
