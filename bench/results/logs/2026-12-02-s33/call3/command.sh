#!/usr/bin/env bash
# s33 call 3. c3 = 68aea58 (main's dispatcher, a550b71, + GemmTest.SmallWeightOnTheTiledSplit). (a) The new test
# plainly, then under memcheck and racecheck: 576x7168 at M = 129-513 on every tiled split the dispatcher now
# takes there. (b) #5's audit at M = 16 and 64 on the ten shapes of the 20 the thirtieth session's (M = 1-128,
# 11 shapes) did not reach, first half: the dispatcher against every forced path, one round, settle 20 ms;
# forced rows carry runs_as, so repeats of the pick are marked.
set -u
rm -rf c3 && tar -xJf build-carry/s33c3.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c3
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
F=--gtest_filter=GemmTest.SmallWeightOnTheTiledSplit
timeout 60 $N/tests/blockfp8_gpu_tests $F > $R/test.log 2>&1; echo "test rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/test.log | tr '\n' ' ')" >> $S
for tool in memcheck racecheck; do
  BLOCKFP8_TEST_TIMEOUT=150 timeout 170 compute-sanitizer --tool $tool $N/tests/blockfp8_gpu_tests $F > $R/$tool.log 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$tool.log | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $R/$tool.log | tr '\n' ' ')" >> $S
done
export BLOCKFP8_COMMIT=$(cat $N/COMMIT) BLOCKFP8_BENCH_TIMEOUT=60
SH=""; for s in 1536,7168 3072,1536 3072,7168 4096,512 4608,7168 6144,1536 6144,7168 7168,256 7168,512 7168,1024; do SH="$SH --shape $s"; done
timeout 230 $N/bench/blockfp8-bench $SH --paths --m 16,64 --settle-ms 20 --no-cublaslt --no-bf16a --no-constw --no-check \
  --json $R/paths.jsonl > $R/paths.log 2>&1; echo "paths rc=$? $(wc -l < $R/paths.jsonl)" >> $S
python3 tools/forced_vs_dispatch.py $R/paths.jsonl > $R/forced_vs_dispatch.txt 2>&1; tail -1 $R/forced_vs_dispatch.txt >> $S
cat $S
gzip $R/paths.log $R/paths.jsonl $R/memcheck.log $R/racecheck.log
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
