#!/usr/bin/env bash
# s25 call 4. N = 6b39784 (the tiled kernel from 5 to 32 tokens on weights with more 128-row tiles than
# SMs and K <= 24 k-blocks); O = main at the session's start (42a00dc, kernels as a702d19).
# GPU tests on N; N against O interleaved twice on the two DeepSeek weights the rule moves (q_b/tp1
# 24576x1536, kv_b/tp1 32768x512) and three it leaves (16384x512, 12288x1536, 2112x7168), fp8 and the
# bf16-activation backends; the tiled kernel forced at 33-64 tokens on ten narrower weights (short K
# mostly) beside the dispatcher's decode picks (O); then the whole benchmark on N with its repeat
# check and plots.
set -u
rm -rf build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
timeout 100 build-var/N/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure" $R/gpu_tests.log | head -20 >> $S
ARGS=""
for s in 24576,1536 32768,512 16384,512 12288,1536 2112,7168; do ARGS="$ARGS --shape $s"; done
for rep in 1 2; do
  for side in N O; do
    B=build-var/$side/blockfp8-bench; [ $side = N ] && B=build-var/N/bench/blockfp8-bench
    timeout 60 $B $ARGS --m 1,4,5,8,12,16,24,32 --no-floor --no-cublaslt --no-constw \
      --json $R/ab_${side}_$rep.jsonl > /dev/null 2>> $R/ab_stderr.txt || echo "ab $side $rep failed" >> $S
  done
done
python3 tools/ab_table.py N O $R/ab_N_1.jsonl $R/ab_N_2.jsonl $R/ab_O_1.jsonl $R/ab_O_2.jsonl > $R/ab_fp8.md
AB_BACKEND=blockfp8_bf16a python3 tools/ab_table.py N O $R/ab_N_1.jsonl $R/ab_N_2.jsonl $R/ab_O_1.jsonl $R/ab_O_2.jsonl > $R/ab_bf16a.md
ARGS=""
for s in 7168,1024 8192,512 4096,512 6144,1536 7168,2048 3072,1536 7168,512 7168,256 4608,7168 7168,2304; do ARGS="$ARGS --shape $s"; done
timeout 100 build-var/O/blockfp8-bench $ARGS --m 33,40,48,64 --config tiled_t128_r64_p8_c1x2 --config-rounds 3 \
  --no-floor --no-cublaslt --no-bf16a --no-constw --no-check --json $R/forced64.jsonl > /dev/null 2>> $R/ab_stderr.txt
echo "forced64 rc=$?" >> $S
python3 - $R/forced64.jsonl > $R/forced64.md <<'P'
import json, sys
d = {}
for r in map(json.loads, open(sys.argv[1])):
    if r.get('cold_us'):
        d.setdefault((r['N'], r['K'], r['M']), {})['tiled' if ':' in r['backend'] else 'auto'] = (r['cold_us'], r['config'])
print('| N x K | M | dispatcher us | config | tiled_t128_r64_p8_c1x2 us (median of 3) | tiled / dispatcher |')
print('|---|---:|---:|---|---:|---:|')
for k in sorted(d):
    v = d[k]
    if 'auto' in v and 'tiled' in v:
        print(f"| {k[0]}x{k[1]} | {k[2]} | {v['auto'][0]:.2f} | {v['auto'][1]} | {v['tiled'][0]:.2f} | {v['tiled'][0] / v['auto'][0]:.3f} |")
P
B=build-var/N/bench/blockfp8-bench
timeout 300 $B --commit 6b39784 --json $R/bench.jsonl > $R/bench.log 2>&1
echo "bench rc=$? $(wc -l < $R/bench.jsonl) lines" >> $S
timeout 60 $B --repeat-check --m 1,4,16,64,128,256 > $R/repeat.log 2>&1
echo "repeat rc=$? $(tail -2 $R/repeat.log | tr '\n' ' ')" >> $S
timeout 60 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md > $R/plot.log 2>&1
echo "plot rc=$?" >> $S
cat $S $R/ab_fp8.md $R/ab_bf16a.md $R/forced64.md
gzip -9 -n $R/gpu_tests.log $R/bench.log
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
