#!/usr/bin/env bash
# s25 call 5. N = ddd2bb2 (also the tiled kernel at 33-64 tokens on weights of 32+ tiles with K <= 8
# k-blocks; the bench's bf16a slots sized for the tiled plan's scales); P = 6b39784 (call 4).
# GPU tests on N; N against P interleaved twice where the new rule moves points (7168x256/512/1024,
# 8192x512, 4096x512 at M = 33-64) and two weights it leaves (7168x2048, 3072x1536), fp8 and bf16a;
# the bf16a backends at M = 5 on 24576x1536 (refused by call 4's bench); the whole benchmark on N
# with its repeat check and plots.
set -u
rm -rf build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
timeout 100 build-var/N/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure" $R/gpu_tests.log | head -20 >> $S
ARGS=""
for s in 7168,256 7168,512 7168,1024 8192,512 4096,512 7168,2048 3072,1536; do ARGS="$ARGS --shape $s"; done
for rep in 1 2; do
  for side in N P; do
    timeout 60 build-var/$side/bench/blockfp8-bench $ARGS --m 32,33,40,48,64 --no-floor --no-cublaslt --no-constw \
      --json $R/ab_${side}_$rep.jsonl > /dev/null 2>> $R/ab_stderr.txt || echo "ab $side $rep failed" >> $S
  done
done
python3 tools/ab_table.py N P $R/ab_N_1.jsonl $R/ab_N_2.jsonl $R/ab_P_1.jsonl $R/ab_P_2.jsonl > $R/ab_fp8.md
AB_BACKEND=blockfp8_bf16a python3 tools/ab_table.py N P $R/ab_N_1.jsonl $R/ab_N_2.jsonl $R/ab_P_1.jsonl $R/ab_P_2.jsonl > $R/ab_bf16a.md
B=build-var/N/bench/blockfp8-bench
timeout 40 $B --shape 24576,1536 --m 5 --no-floor --no-cublaslt --no-constw --json $R/m5.jsonl > /dev/null 2>&1
echo "m5 rc=$? $(grep -o '"backend":"blockfp8_[a-z0-9_]*","config":"[^"]*"[^}]*"cold_us":[0-9.]*' $R/m5.jsonl | sed 's/,"shape.*cold_us"/ /' | tr '\n' ' ')" >> $S
timeout 300 $B --commit ddd2bb2 --json $R/bench.jsonl > $R/bench.log 2>&1
echo "bench rc=$? $(wc -l < $R/bench.jsonl) lines" >> $S
timeout 60 $B --repeat-check --m 1,4,16,64,128,256 > $R/repeat.log 2>&1
echo "repeat rc=$? $(tail -2 $R/repeat.log | tr '\n' ' ')" >> $S
timeout 60 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md > $R/plot.log 2>&1
echo "plot rc=$?" >> $S
cat $S $R/ab_fp8.md $R/ab_bf16a.md
gzip -9 -n $R/gpu_tests.log $R/bench.log
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
