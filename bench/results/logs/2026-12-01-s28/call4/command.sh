#!/usr/bin/env bash
# s28 call 4. build-prod = 375fff6 + the quantiser's bytes from products (quantize_by_products: x RN(1/s) and a
# window of 2^-21 either side decide the byte where both ends cast alike; the division only for a lane where
# they do not). build-head = 375fff6. All GPU tests and memcheck on Quantize1x128.* (prod); --quant
# alternating three times; the bf16 rows (blockfp8_bf16a / blockfp8_quant_gemm) at M = 2-32 on three weights.
set -u
rm -rf build-prod build-head && tar -xJf build-carry/s28c4.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
timeout 150 build-prod/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
timeout 100 compute-sanitizer --tool memcheck build-prod/tests/blockfp8_gpu_tests --gtest_filter='Quantize1x128.*' > $R/memcheck.log 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $R/memcheck.log | tr '\n' ' ')" >> $S
for rep in 1 2 3; do
  for side in prod head; do
    timeout 60 build-$side/bench/blockfp8-bench --quant --json $R/quant_${side}_$rep.jsonl > $R/quant_${side}_$rep.md 2>&1
  done
done
for rep in 1 2; do
  for side in prod head; do
    timeout 90 build-$side/bench/blockfp8-bench --shape 2112,7168 --shape 576,7168 --shape 3072,1536 --m 2,8,16,32 \
      --no-cublaslt --no-constw --no-floor --json $R/bf16_${side}_$rep.jsonl > /dev/null 2>&1
  done
done
python3 - $R >> $S <<'PY'
import json,sys,glob,statistics,collections
R=sys.argv[1]; d=collections.defaultdict(list)
for f in glob.glob(R+'/quant_*_*.jsonl'):
    side=f.split('quant_')[1].split('_')[0]
    for l in open(f):
        r=json.loads(l)
        if r['backend']=='quantize_1x128': d[(r['config'],r['M'],side)].append((r['cold_us'],r.get('gbps')))
fm=lambda v: ', '.join(f'{x[0]:.2f}' for x in v)
print('| scales | M | products µs | head µs | ratio | products GB/s |'); print('|---|---:|---|---|---:|---:|')
for (c,m) in sorted(set((k[0],k[1]) for k in d)):
    a=d[(c,m,'prod')]; o=d[(c,m,'head')]
    if a and o: print(f"| {c} | {m} | {fm(a)} | {fm(o)} | {statistics.median([x[0] for x in a])/statistics.median([x[0] for x in o]):.3f} | {statistics.median([x[1] or 0 for x in a]):.0f} |")
d=collections.defaultdict(list)
for f in glob.glob(R+'/bf16_*_*.jsonl'):
    side=f.split('bf16_')[1].split('_')[0]
    for l in open(f):
        r=json.loads(l)
        if r['backend'] in ('blockfp8_bf16a','blockfp8_quant_gemm') and r.get('cold_us'):
            d[(r['backend'],r['N'],r['K'],r['M'],side)].append(r['cold_us'])
print(); print('| backend | N x K | M | products µs | head µs | ratio |'); print('|---|---|---:|---|---|---:|')
for k in sorted(set(k[:4] for k in d)):
    a=d[k+('prod',)]; o=d[k+('head',)]
    if a and o: print(f"| {k[0]} | {k[1]}x{k[2]} | {k[3]} | {', '.join(f'{x:.2f}' for x in a)} | {', '.join(f'{x:.2f}' for x in o)} | {statistics.median(a)/statistics.median(o):.3f} |")
PY
grep -h "streaming floor read" $R/quant_prod_*.md >> $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
