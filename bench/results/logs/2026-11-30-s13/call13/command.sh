# s13 call 13: the final tree (the const-weights flag inert): the GPU tests, and the sequence that
# faulted in calls 8-9 with blockfp8_constw timed (--constw) and checked.
set -u
R=/tmp/r13; mkdir -p $R; T=build-dev/tests/blockfp8_gpu_tests; B=build-dev/bench/blockfp8-bench
timeout 120 $T > $R/gtest.log 2>&1; echo "gtest rc=$?"; grep -E "PASSED|FAILED|resident" $R/gtest.log | head -5
timeout 60 $B --shape 24576,7168 --shape 12288,7168 --m 1024,4096,8192,1,2,4,8 --constw --json $R/seq.jsonl > $R/seq.log 2>&1; echo "seq rc=$?"; tail -1 $R/seq.log
grep -E "12288.*\| (4|8) \| blockfp8" $R/seq.log | cut -c1-150
tar -C /tmp -czf $OUT/call13.tgz r13
