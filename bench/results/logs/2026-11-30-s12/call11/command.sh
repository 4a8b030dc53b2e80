# s12 call 11: the warp-MMA kernel's epilogue parameters (C, ldc, dtype, M, N, split) held in registers
# from the start instead of reread from the parameter bank after the main loop (is the 0.3 us final
# sum a constant-cache miss?), against call 8's build (build-dev/old): its GPU tests, the timeline,
# the interleaved A/B on the six shapes the kernel serves.
set -u
R=$OUT/r; mkdir -p $R; T=build-dev/tests/blockfp8_gpu_tests; B=build-dev/bench/blockfp8-bench; TL=build-dev/bench/decode_timeline
timeout 150 $T --gtest_filter='GemmTest.ForcedWarpMma*:FusedTest.*:ReliabilityTest.Determinism:GemmTest.DispatcherShapes:GemmTest.Padding' > $R/gtest.log 2>&1; echo "gtest rc=$?"; tail -1 $R/gtest.log
{ timeout 30 $TL 2112 7168 1; echo; BLOCKFP8_PDL=0 timeout 30 $TL 2112 7168 1; } > $R/timeline.log 2>&1; echo "timeline rc=$?"
S="--shape 2112,7168 --shape 1536,7168 --shape 4096,7168 --shape 3072,7168 --shape 3072,1536 --shape 4096,512"
OUT=$R/ab bash tools/binary_ab.sh pinned $B build-dev/old/blockfp8-bench $S --m 1,2,4,8 --no-floor --no-cublaslt > /dev/null; echo "ab done"
tar -C $OUT -czf $OUT/call11.tgz r
