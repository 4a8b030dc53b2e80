# s12 call 4: the warp-MMA kernel's slot read into registers before its refill is issued (the copies
# of k-block i + S in flight during k-block i's MMAs), and the final sum's loads issued together
# (one shared-memory latency, not one per warp), against the build of call 3 (build-dev/old):
# tests first, the timeline, then the interleaved A/B on the six shapes the kernel serves.
set -u
R=$OUT/r; mkdir -p $R; T=build-dev/tests/blockfp8_gpu_tests; B=build-dev/bench/blockfp8-bench; TL=build-dev/bench/decode_timeline
timeout 150 $T --gtest_filter='GemmTest.ForcedWarpMma*:FusedTest.*:ReliabilityTest.Determinism:GemmTest.DispatcherShapes:GemmTest.Padding' > $R/gtest.log 2>&1; echo "gtest rc=$?"; tail -1 $R/gtest.log
timeout 120 compute-sanitizer --tool racecheck $T --gtest_filter='GemmTest.ForcedWarpMmaLayouts' > $R/racecheck.log 2>&1; echo "racecheck rc=$?"; tail -1 $R/racecheck.log
{ for m in 1 8; do timeout 30 $TL 2112 7168 $m; echo; done; } > $R/timeline.log 2>&1; echo "timeline rc=$?"
S="--shape 2112,7168 --shape 1536,7168 --shape 4096,7168 --shape 3072,7168 --shape 3072,1536 --shape 4096,512"
OUT=$R/ab bash tools/binary_ab.sh early $B build-dev/old/blockfp8-bench $S --m 1,2,4,8 --no-floor --no-cublaslt > /dev/null; echo "ab done"
tar -C $OUT -czf $OUT/call4.tgz r
