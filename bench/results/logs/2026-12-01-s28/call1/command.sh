#!/usr/bin/env bash
# s28 call 1. build-hoist = wip/quant-hoist-s28 (main f242367 + the quantiser's row addresses once an item):
# GPU tests Quantize* and Fused*, memcheck on Quantize1x128.*, --quant alternating with main three times.
# Then #3: forced decode plans on 2112x7168 at M = 16 and 32 (all 132 SMs unsplit on 16-row tiles, pairs of
# 32-row tiles, the warp-MMA kernel) against the dispatcher's pick, three shuffled rounds, hot and cold.
set -u
rm -rf build-hoist build-main28 && tar -xJf build-carry/s28c1.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw --format=csv > $R/gpu.txt
timeout 120 build-hoist/tests/blockfp8_gpu_tests --gtest_filter='Quantize*:Fused*' > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
timeout 100 compute-sanitizer --tool memcheck build-hoist/tests/blockfp8_gpu_tests --gtest_filter='Quantize1x128.*' > $R/memcheck.log 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $R/memcheck.log | tr '\n' ' ')" >> $S
for rep in 1 2 3; do
  for side in hoist main28; do
    timeout 60 build-$side/bench/blockfp8-bench --quant --json $R/quant_${side}_$rep.jsonl > $R/quant_${side}_$rep.md 2>&1
  done
done
timeout 200 build-main28/bench/blockfp8-bench --shape 2112,7168 --m 16,32 --config-rounds 3 --no-cublaslt --no-bf16a --no-constw \
  --config swapab_r16_t16_s1_w2_k4_p0 --config swapab_r16_t16_s1_w2_k2_p0 --config swapab_r16_t32_s1_w2_k4_p0 \
  --config swapab_r16_t32_s1_w2_k2_p0 --config swapab_r32_t32_s2_w2_k2_p0 --config swapab_r32_t16_s2_w2_k2_p0 \
  --config swapab_r32_t32_s2_w2_k4_p0 --config swapab_r16_t32_s2_w2_k2_p0 --config warpmma_r16_t16_s1_w2_k2 \
  --config swapab_r64_t32_s3_w2_k2_p0 --config swapab_r64_t16_s3_w2_k2_p0 \
  --json $R/forced.jsonl > $R/forced.md 2>&1
echo "forced rc=$?" >> $S
python3 - $R >> $S <<'PY'
import json,sys,glob,statistics,collections
R=sys.argv[1]; d=collections.defaultdict(list)
for f in glob.glob(R+'/quant_*_*.jsonl'):
    side=f.split('quant_')[1].split('_')[0]
    for l in open(f):
        r=json.loads(l)
        if r['backend']=='quantize_1x128': d[(r['config'],r['M'],side)].append(r['cold_us'])
fm=lambda v: ', '.join(f'{x:.2f}' for x in v)
print('| scales | M | hoist µs | main µs | ratio |'); print('|---|---:|---|---|---:|')
for (c,m) in sorted(set((k[0],k[1]) for k in d)):
    a=d[(c,m,'hoist')]; o=d[(c,m,'main28')]
    if a and o: print(f"| {c} | {m} | {fm(a)} | {fm(o)} | {statistics.median(a)/statistics.median(o):.3f} |")
print()
fl=None
rows=[json.loads(l) for l in open(R+'/forced.jsonl')]
for r in rows:
    if r['backend']=='floor': fl=r['cold_us']
print('| M | backend | config | cold µs | hot µs | x floor | err |'); print('|---:|---|---|---:|---:|---:|---|')
for r in sorted(rows,key=lambda r:(r['M'],r.get('cold_us') or 1e9)):
    if r['M']==0: continue
    c=r.get('cold_us') or 0; h=r.get('hot_us') or 0
    print(f"| {r['M']} | {r['backend']} | {r['config']} | {c:.2f} | {h:.2f} | {c/fl if fl and c else 0:.3f} | {r.get('error') or ''} |")
PY
grep -h "streaming floor read" $R/quant_hoist_*.md >> $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
