# s12 call 17 (branch wip/warpmma-fused-pairs): the warp-MMA kernel's fused prologue split over a
# cluster of two consecutive strips: each CTA loads and quantises every other group of X, then reads
# its partner's through DSMEM (one launch now also at M = 2 on 2112x7168). Bitwise tests (the tests
# that pin which M take one launch are left out: they pin the old answer), memcheck and racecheck,
# the timeline, and bf16a against the build of call 16, both twice, interleaved.
set -u
R=$OUT/r; mkdir -p $R; T=build-dev/tests/blockfp8_gpu_tests; B=build-dev/bench/blockfp8-bench; TL=build-dev/bench/decode_timeline
timeout 200 $T --gtest_filter='FusedTest.*-FusedTest.WorkspaceSizeSaysOneLaunchForDecode:FusedTest.EveryMUpTo32OnThePrimaryShape' > $R/gtest.log 2>&1; echo "gtest rc=$?"; tail -1 $R/gtest.log; grep -E "fused    \]" $R/gtest.log
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool $T --gtest_filter='FusedTest.SanitizerSmoke' > $R/$tool.log 2>&1; echo "$tool rc=$?"; tail -1 $R/$tool.log
done
{ for m in 1 2; do timeout 30 $TL 2112 7168 $m bf16a; echo; done; } > $R/timeline.log 2>&1; echo "timeline rc=$?"
S="--shape 2112,7168 --shape 1536,7168 --shape 4096,7168 --shape 3072,7168 --shape 3072,1536 --shape 4096,512"
for rep in 1 2; do
  timeout 200 $B $S --m 1,2,4 --no-floor --no-cublaslt --no-constw --no-check --json $R/new_$rep.jsonl > /dev/null 2>&1; echo "new $rep rc=$?"
  timeout 200 build-dev/old/blockfp8-bench $S --m 1,2,4 --no-floor --no-cublaslt --no-constw --no-check --json $R/old_$rep.jsonl > /dev/null 2>&1; echo "old $rep rc=$?"
done
tar -C $OUT -czf $OUT/call17.tgz r
