#!/usr/bin/env bash
# s26 call 1 (build-dev = b1a8288). Three questions, one call:
#  1. Why the streaming floor on 4096x7168 (29.4 MB) reads 9.6-10.1 us in every run while 7168x4096 (the same
#     bytes) reads 8.7-8.9 and our GEMM beats it at M = 1: the floor alone, then right after 7168x16384's
#     heaviest points (the order of the DeepSeek set), with nvidia-smi clocks sampled.
#  2. ncu on the tiled kernel's loop at current main (as s16 call 7 did before the carried addresses), and
#     the tiled kernel beside cuBLASLt's kernel at 7168x2304 M = 256 (one round of 128x128 tiles each,
#     cuBLASLt 1.26x faster in latest.jsonl): sections with pipe and shared-memory figures, raw page.
#  3. Forced points of tools/dispatch_inversions.py: the TMA decode plan at M = 2-4 on 7168x16384 / 7168x18432,
#     the tiled plan at M = 17-32 on 7168x256.
set -u
rm -rf build-dev && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
B=build-dev/bench/blockfp8-bench
Q="--no-cublaslt --no-bf16a --no-constw --no-check"
# 1. the floor
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv -lms 50 > $R/smi.csv 2>&1 &
SMI=$!
for rep in 1 2; do
  timeout 60 $B --shape 4096,7168 --shape 7168,4096 --m 1 $Q --json $R/floor_alone_$rep.jsonl > /dev/null 2>> $R/stderr.txt
  echo "floor alone $rep rc=$? $(date +%T.%N)" >> $S
done
timeout 120 $B --shape 7168,16384 --shape 4096,7168 --shape 7168,4096 --m 1,4096,8192 $Q --json $R/floor_after_heavy.jsonl > /dev/null 2>> $R/stderr.txt
echo "floor after heavy rc=$? $(date +%T.%N)" >> $S
kill $SMI
python3 - $R/floor_alone_1.jsonl $R/floor_alone_2.jsonl $R/floor_after_heavy.jsonl >> $S <<'P'
import json, sys
for f in sys.argv[1:]:
    for r in map(json.loads, open(f)):
        if r['backend'] in ('floor', 'blockfp8') and r['M'] <= 1:
            print(f.split('/')[-1], r['N'], r['K'], r['backend'], r['config'], round(r['cold_us'], 2), round(r['hot_us'], 2))
P
# 2. ncu
ncu --query-metrics > $R/ncu_query_metrics.txt 2>&1
timeout 150 ncu --kernel-name-base demangled -k 'regex:tiled_gemm_kernel<\(int\)192, \(bool\)0>' --launch-skip 2 --launch-count 1 \
  --section SourceCounters --section WarpStateStats --section SpeedOfLight --warp-sampling-interval 2 \
  -o $R/ncu_main $B --shape 2112,16384 --m 1024 --config tiled_t128_r192_p4_c1x1 $Q --no-floor --replays 2 > $R/ncu_main_run.log 2>&1
echo "ncu main rc=$?" >> $S
ncu --import $R/ncu_main.ncu-rep --page details > $R/ncu_main_details.txt 2>&1
ncu --import $R/ncu_main.ncu-rep --page source --print-source sass --csv > $R/ncu_main_sass.csv 2>&1
rm -f $R/ncu_main.ncu-rep
# The kernels the run launches, in order (one cheap metric each), then ours and cuBLASLt's profiled by name.
A2="--shape 7168,2304 --m 256 --no-bf16a --no-constw --no-check --no-floor --replays 1 --max-copies 2"
timeout 200 ncu --launch-count 600 --metrics gpu__time_duration.sum --csv $B $A2 > $R/ncu_list.csv 2> $R/ncu_list.err
echo "ncu list rc=$? $(wc -l < $R/ncu_list.csv)" >> $S
LT=$(python3 - $R/ncu_list.csv <<'P'
import csv, sys, re
rows = list(csv.reader(open(sys.argv[1])))
h = next(i for i, r in enumerate(rows) if 'Kernel Name' in r)
k = rows[h].index('Kernel Name')
names = [r[k] for r in rows[h + 1:] if len(r) > k]
ours = re.compile('tiled|swapab|warpmma|fill|stream_|empty|simt|quantize|init|rand', re.I)
other = [n for n in names if not ours.search(n)]
print(re.escape(other[len(other) // 2].split('(')[0]) if other else 'none')
P
)
echo "cuBLASLt kernel regex: $LT" >> $S
for who in ours lt; do
  K='regex:tiled_gemm_kernel'; [ $who = lt ] && K="regex:$LT"
  timeout 150 ncu -k "$K" --launch-skip 1 --launch-count 1 --section SpeedOfLight --section ComputeWorkloadAnalysis \
    --section MemoryWorkloadAnalysis --section WarpStateStats --section LaunchStats -o $R/ncu_$who $B $A2 > $R/ncu_${who}_run.log 2>&1
  echo "ncu $who rc=$?" >> $S
  ncu --import $R/ncu_$who.ncu-rep --page details > $R/ncu_${who}_details.txt 2>&1
  ncu --import $R/ncu_$who.ncu-rep --page raw --csv > $R/ncu_${who}_raw.csv 2>&1
  rm -f $R/ncu_$who.ncu-rep
done
# 3. forced points
while read -r shape ms cfg; do
  timeout 60 $B --shape $shape --m $ms --config $cfg --config-rounds 3 --no-floor $Q --json $R/forced.jsonl > /dev/null 2>> $R/stderr.txt || echo "failed $shape $cfg" >> $S
done <<'L'
7168,16384 2,3,4 swapab_r56_t8_s1_w2_k2_p0
7168,18432 2,3,4 swapab_r56_t8_s1_w2_k2_p0
7168,16384 2,3,4 swapab_r64_t8_s1_w2_k2_p0
7168,256 17,24,32 tiled_t128_r64_p8_c1x2
L
python3 - $R/forced.jsonl > $R/forced.md <<'P'
import json, sys
d = {}
for r in map(json.loads, open(sys.argv[1])):
    if r.get('cold_us'):
        k = (r['N'], r['K'], r['M'])
        if ':' in r['backend']: d.setdefault(k, {}).setdefault('forced', []).append((r['cold_us'], r['config']))
        else: d.setdefault(k, {})['auto'] = (r['cold_us'], r['config'])
print('| N x K | M | dispatcher us | its config | forced us (median of 3) | forced config | forced / dispatcher |')
print('|---|---:|---:|---|---:|---|---:|')
for k in sorted(d):
    a = d[k].get('auto')
    for f in d[k].get('forced', []):
        if a: print(f'| {k[0]}x{k[1]} | {k[2]} | {a[0]:.2f} | {a[1]} | {f[0]:.2f} | {f[1]} | {f[0]/a[0]:.3f} |')
P
cat $R/forced.md >> $S
gzip -9 -n $R/*.csv $R/*.txt 2>/dev/null; gunzip $R/summary.txt.gz 2>/dev/null
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
