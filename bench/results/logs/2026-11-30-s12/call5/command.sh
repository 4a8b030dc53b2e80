# s12 call 5: staggered K walks in the TMA decode kernel (BLOCKFP8_DECODE_ROTATE=1: N-tile i starts
# i / tiles_n of the way into its K slice, whole stages, where the slice outlasts the ring; not fused)
# against all tiles in lockstep (=0). Tests and sanitizers first, then the interleaved A/B.
set -u
R=$OUT/r; mkdir -p $R; T=build-dev/tests/blockfp8_gpu_tests; B=build-dev/bench/blockfp8-bench
timeout 240 $T --gtest_filter='GemmTest.*:FusedTest.*:ReliabilityTest.Determinism:ReliabilityTest.BatchInvariantMode' > $R/gtest.log 2>&1; echo "gtest rc=$?"; tail -1 $R/gtest.log
timeout 150 compute-sanitizer --tool memcheck $T --gtest_filter='ReliabilityTest.SanitizerSmoke' > $R/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -1 $R/memcheck.log
timeout 150 compute-sanitizer --tool racecheck $T --gtest_filter='ReliabilityTest.SanitizerSmoke' > $R/racecheck.log 2>&1; echo "racecheck rc=$?"; tail -1 $R/racecheck.log
S="--shape 2112,7168 --shape 576,7168 --shape 7168,2048 --shape 4608,7168 --shape 12288,7168 --shape 7168,16384 --shape 1536,7168"
OUT=$R/rot bash tools/env_ab.sh build-dev BLOCKFP8_DECODE_ROTATE $S --m 1,8,16,32,64,128,256 --no-floor --no-cublaslt > /dev/null; echo "rot ab done"
tar -C $OUT -czf $OUT/call5.tgz r
