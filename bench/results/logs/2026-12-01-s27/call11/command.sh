#!/usr/bin/env bash
# s27 call 11. The quantiser at HEAD: 128-thread CTAs only where the grid has at most 64 items (M <= 9 at K = 7168),
# 256 elsewhere (call 10: the two-launch bf16 path was 1.02-1.07x slower at M = 16-32 with 128 there). GPU tests
# Quantize* and Fused*; the quantiser bench alternating with 7474127 (build-dev) three times, and the bf16 rows
# (blockfp8_bf16a / blockfp8_quant_gemm) at M = 2-32 on three weights, twice each.
set -u
rm -rf build-new build-dev && tar -xJf build-carry/s27c11.tar.xz
timeout 200 build-new/tests/blockfp8_gpu_tests --gtest_filter='Quantize*:Fused*' > $OUT/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/gpu_tests.log | tr '\n' ' ')"
A=$OUT/ab; mkdir -p $A
for rep in 1 2 3; do
  for side in new dev; do
    timeout 100 build-$side/bench/blockfp8-bench --quant --json $A/quant_${side}_$rep.jsonl > /dev/null 2>&1
  done
done
for rep in 1 2; do
  for side in new dev; do
    timeout 150 build-$side/bench/blockfp8-bench --shape 2112,7168 --shape 576,7168 --shape 3072,1536 --m 2,4,8,16,32 \
      --no-cublaslt --no-constw --no-floor --json $A/bf16_${side}_$rep.jsonl > $A/bf16_${side}_$rep.log 2>&1
  done
done
python3 - $A > $A/summary.txt <<'PY'
import json,sys,glob,statistics,collections
A=sys.argv[1]; d=collections.defaultdict(list)
for f in glob.glob(A+'/quant_*_*.jsonl'):
    side=f.split('quant_')[1].split('_')[0]
    for l in open(f):
        r=json.loads(l); d[(r['config'],r['M'],side)].append(r['cold_us'])
print('| scales | M | new µs | 7474127 µs | new / old |'); print('|---|---:|---|---|---:|')
for (c,m) in sorted(set((k[0],k[1]) for k in d)):
    a=d[(c,m,'new')]; o=d[(c,m,'dev')]; f=lambda v: ', '.join(f'{x:.2f}' for x in v)
    print(f"| {c} | {m} | {f(a)} | {f(o)} | {statistics.median(a)/statistics.median(o):.3f} |")
d=collections.defaultdict(list)
for f in glob.glob(A+'/bf16_*_*.jsonl'):
    side=f.split('bf16_')[1].split('_')[0]
    for l in open(f):
        r=json.loads(l)
        if r['backend'] in ('blockfp8_bf16a','blockfp8_quant_gemm','blockfp8') and r.get('cold_us'):
            d[(r['backend'],r['N'],r['K'],r['M'],side)].append(r['cold_us'])
print(); print('| backend | N x K | M | new µs | 7474127 µs | new / old |'); print('|---|---|---:|---|---|---:|')
for k in sorted(set(k[:4] for k in d)):
    a=d[k+('new',)]; o=d[k+('dev',)]
    if a and o: print(f"| {k[0]} | {k[1]}x{k[2]} | {k[3]} | {', '.join(f'{x:.2f}' for x in a)} | {', '.join(f'{x:.2f}' for x in o)} | {statistics.median(a)/statistics.median(o):.3f} |")
PY
cat $A/summary.txt
tar -C $OUT -czf $OUT/ab.tgz ab && rm -rf $A
