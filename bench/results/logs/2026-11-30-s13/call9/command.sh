# s13 call 9: call 8's benchmark stopped at 12288x7168 M = 4 (blockfp8_constw) with
# cudaErrorLaunchFailure, the eleventh session's fault at the same point. First the two shapes that
# ran before it, in one process as the suite runs them (with and without cuBLASLt), then the whole
# DeepSeek set without the const-weights rows, for the table.
set -u
R=/tmp/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench
for i in 1 2; do
  timeout 120 $B --shape 24576,7168 --shape 12288,7168 --m 1024,4096,8192,1,2,4,8 --json $R/repro$i.jsonl > $R/repro$i.log 2>&1; echo "repro $i rc=$?"; tail -1 $R/repro$i.log | cut -c1-160
done
timeout 120 $B --shape 24576,7168 --shape 12288,7168 --m 1024,4096,8192,1,2,4,8 --no-cublaslt --json $R/repro_nolt.jsonl > $R/repro_nolt.log 2>&1; echo "repro no-cublaslt rc=$?"; tail -1 $R/repro_nolt.log | cut -c1-160
timeout 300 $B --no-constw --commit $(cat build-dev/COMMIT) --json $R/bench_noconstw.jsonl > $R/bench_noconstw.log 2>&1; echo "bench --no-constw rc=$?"; tail -1 $R/bench_noconstw.log | cut -c1-160
tar -C /tmp -czf $OUT/call9.tgz r
