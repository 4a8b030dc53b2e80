# s12 call 2: the warp-MMA kernel with the token tile's K slice copied once into shared memory
# (BLOCKFP8_WARPMMA_RESIDENT=1: the ring carries weight rows and b_scales only) against tokens in the
# ring (=0): GPU tests and sanitizers with it on, timelines, the interleaved A/B on the six shapes the
# dispatcher gives the kernel; the staggered K walk (now only where the slice outlasts the rings) on
# the four shapes call 1 did not time; the floor's ldg timeline.
set -u
R=$OUT/r; mkdir -p $R; T=build-dev/tests/blockfp8_gpu_tests; B=build-dev/bench/blockfp8-bench; TL=build-dev/bench/decode_timeline
export BLOCKFP8_WARPMMA_RESIDENT=1
timeout 150 $T --gtest_filter='GemmTest.ForcedWarpMma*:FusedTest.*:ReliabilityTest.Determinism:GemmTest.DispatcherShapes:GemmTest.Padding' > $R/gtest.log 2>&1; echo "gtest rc=$?"; tail -2 $R/gtest.log
timeout 120 compute-sanitizer --tool memcheck $T --gtest_filter='GemmTest.ForcedWarpMmaLayouts' > $R/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -1 $R/memcheck.log
timeout 120 compute-sanitizer --tool racecheck $T --gtest_filter='GemmTest.ForcedWarpMmaLayouts' > $R/racecheck.log 2>&1; echo "racecheck rc=$?"; tail -1 $R/racecheck.log
{
  timeout 60 $TL 2112 7168 floor; echo
  for m in 1 8; do timeout 30 $TL 2112 7168 $m; echo; BLOCKFP8_WARPMMA_RESIDENT=0 timeout 30 $TL 2112 7168 $m; echo; done
} > $R/timeline.log 2>&1; echo "timeline rc=$?"
S="--shape 2112,7168 --shape 1536,7168 --shape 4096,7168 --shape 3072,7168 --shape 3072,1536 --shape 4096,512"
OUT=$R/res bash tools/env_ab.sh build-dev BLOCKFP8_WARPMMA_RESIDENT $S --m 1,2,4,8 --no-floor --no-cublaslt > /dev/null; echo "resident ab done"
unset BLOCKFP8_WARPMMA_RESIDENT
OUT=$R/rot bash tools/env_ab.sh build-dev BLOCKFP8_WARPMMA_ROTATE --shape 1536,7168 --shape 4096,7168 --shape 3072,7168 --m 1,4,8 --no-floor --no-cublaslt > /dev/null; echo "rot ab done"
tar -C $OUT -czf $OUT/call2.tgz r
