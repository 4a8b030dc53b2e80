# s12 call 16: the dispatcher's ring of 2 for 16-row warp-MMA strips from M = 7 (and its fused
# instantiation): the GPU tests that cover the dispatcher and the fused path, then the interleaved A/B
# against call 14's build (build-dev/old) on the two 16-row shapes at M = 6-8.
set -u
R=$OUT/r; mkdir -p $R; T=build-dev/tests/blockfp8_gpu_tests; B=build-dev/bench/blockfp8-bench
timeout 200 $T --gtest_filter='GemmTest.*:FusedTest.*:ReliabilityTest.Determinism:ReliabilityTest.BatchInvariantMode' > $R/gtest.log 2>&1; echo "gtest rc=$?"; tail -1 $R/gtest.log
timeout 120 compute-sanitizer --tool memcheck $T --gtest_filter='FusedTest.SanitizerSmoke:GemmTest.ForcedWarpMmaLayouts' > $R/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -1 $R/memcheck.log
OUT=$R/ab bash tools/binary_ab.sh ring2 $B build-dev/old/blockfp8-bench --shape 2112,7168 --shape 1536,7168 --m 6,7,8 --no-floor --no-cublaslt > /dev/null; echo "ab done"
cat $R/ab/ring2_ab.md
tar -C $OUT -czf $OUT/call16.tgz r
