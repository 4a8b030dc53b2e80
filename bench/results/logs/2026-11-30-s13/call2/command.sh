# s13 call 2: the tiled split-K sum issues all ranks' DSMEM loads of a quad before adding (and skips
# rows past M), against call 1's build (build-dev/old: same split limit, ranks loaded one by one).
# Tests and sanitizers first, then both builds twice each, interleaved, forced configurations.
set -u
R=/tmp/r; mkdir -p $R; T=build-dev/tests/blockfp8_gpu_tests
timeout 150 $T --gtest_filter='TiledTest.*:ReliabilityTest.Determinism' > $R/gtest.log 2>&1; echo "gtest rc=$?"; tail -1 $R/gtest.log
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 $T --gtest_filter='TiledTest.SplitK*' > $R/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -1 $R/memcheck.log
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 99 $T --gtest_filter='TiledTest.SplitK*' > $R/racecheck.log 2>&1; echo "racecheck rc=$?"; tail -1 $R/racecheck.log
CT=""; for c in r96_p0_c1x1_k6 r96_p0_c1x1_k8 r128_p0_c1x1_k5 r128_p0_c1x1_k7 r128_p0_c1x1_k8 r144_p0_c1x1_k4 r144_p0_c1x1_k6 r144_p0_c1x1_k8 r176_p0_c1x1_k5 r176_p0_c1x1_k8 r192_p0_c1x1_k6 r192_p0_c1x1_k8 r64_p0_c1x1_k8 r128_p0_c1x1_k2 r192_p0_c1x1_k3; do CT="$CT --config tiled_t128_$c"; done
for rep in 1 2; do for side in new old; do
  B=build-dev/bench/blockfp8-bench; [ $side = old ] && B=build-dev/old/blockfp8-bench
  for nk in 2112,7168 576,7168 4096,7168 1536,7168; do
    timeout 150 $B --shape $nk --m 64,128,256,512 --no-bf16a --no-constw --no-floor --no-cublaslt --no-check --config-rounds 1 $CT --json $R/${side}_${rep}_${nk/,/x}.jsonl > /dev/null 2>&1; echo "$side $rep $nk rc=$?"
  done
done; done
tar -C /tmp -czf $OUT/call2.tgz r
