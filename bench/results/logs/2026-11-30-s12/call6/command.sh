# s12 call 6: blockfp8_gemm_bf16a's warp-MMA form quantising k-block by k-block from its ring (X's
# bf16 groups travel with the weight; no prologue; every M the kernel serves) against the build of
# call 5 (build-dev/old: the prologue form at M = 1 only; BLOCKFP8_DECODE_ROTATE=0 there, so its TMA
# kernel is main's). Tests and sanitizers, the timeline, then both binaries twice, interleaved,
# bf16a and quantiser + GEMM, on the six shapes the warp-MMA kernel serves at M = 1-8.
set -u
R=$OUT/r; mkdir -p $R; T=build-dev/tests/blockfp8_gpu_tests; B=build-dev/bench/blockfp8-bench; TL=build-dev/bench/decode_timeline
timeout 200 $T --gtest_filter='FusedTest.*:GemmTest.ForcedWarpMma*:ReliabilityTest.BadInputsBf16a' > $R/gtest.log 2>&1; echo "gtest rc=$?"; tail -1 $R/gtest.log
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool $T --gtest_filter='FusedTest.SanitizerSmoke' > $R/$tool.log 2>&1; echo "$tool rc=$?"; tail -1 $R/$tool.log
done
{ for m in 1 8; do timeout 30 $TL 2112 7168 $m bf16a; echo; done; } > $R/timeline.log 2>&1; echo "timeline rc=$?"
S="--shape 2112,7168 --shape 1536,7168 --shape 4096,7168 --shape 3072,7168 --shape 3072,1536 --shape 4096,512"
for rep in 1 2; do
  timeout 200 $B $S --m 1,2,4,8 --no-floor --no-cublaslt --no-constw --no-check --json $R/new_$rep.jsonl > /dev/null 2>&1; echo "new $rep rc=$?"
  BLOCKFP8_DECODE_ROTATE=0 timeout 200 build-dev/old/blockfp8-bench $S --m 1,2,4,8 --no-floor --no-cublaslt --no-constw --no-check --json $R/old_$rep.jsonl > /dev/null 2>&1; echo "old $rep rc=$?"
done
tar -C $OUT -czf $OUT/call6.tgz r
