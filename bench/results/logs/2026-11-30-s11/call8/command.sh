# s11 call 8: the suite's bench again (call 7's died at 12288x7168 M = 4, blockfp8_constw); if it dies
# again, compute-sanitizer memcheck on that point; the fuzzer with the library's device description.
set -u
R=$OUT/run; mkdir -p $R; B=build-dev/bench/blockfp8-bench
export BLOCKFP8_COMMIT=$(cat build-dev/COMMIT)
timeout 200 $B --json $R/bench.jsonl > $R/bench.log 2>&1; rc=$?; echo "bench rc=$rc"; tail -1 $R/bench.log
if [ $rc -ne 0 ]; then
  timeout 150 compute-sanitizer --tool memcheck $B --shape 12288,7168 --m 1,2,4 --no-cublaslt --no-floor --replays 2 > $R/bench_memcheck.log 2>&1; echo "memcheck rc=$?"; tail -4 $R/bench_memcheck.log
fi
timeout 60 build-dev/tests/blockfp8_fuzz --cases 2000 --max-seconds 40 > $R/fuzz.log 2>&1; echo "fuzz rc=$?"; tail -2 $R/fuzz.log
timeout 60 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --json bench.jsonl" > $R/plot.log 2>&1; echo "plot rc=$?"
tar -C $OUT -czf $OUT/call8.tgz run
