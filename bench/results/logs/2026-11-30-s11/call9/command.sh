# s11 call 9: chasing call 7's fault (12288x7168 M = 4, blockfp8_constw, the TMA decode kernel):
# the shape three times over in fresh processes, then under compute-sanitizer memcheck.
set -u
R=$OUT/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench
for i in 1 2 3; do
  timeout 60 $B --shape 12288,7168 --m 1,2,4,8 --no-cublaslt --no-floor --json $R/rep$i.jsonl > $R/rep$i.log 2>&1; echo "rep $i rc=$?"; tail -1 $R/rep$i.log
done
timeout 240 compute-sanitizer --tool memcheck --error-exitcode 99 $B --shape 12288,7168 --m 2,4 --no-cublaslt --no-floor --no-bf16a --replays 2 --max-copies 2 > $R/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -3 $R/memcheck.log
tar -C $OUT -czf $OUT/call9.tgz r
