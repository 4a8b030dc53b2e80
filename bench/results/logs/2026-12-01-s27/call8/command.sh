#!/usr/bin/env bash
# s27 call 8. The staged quantiser lost in call 7 (1.19-1.24x the direct form at M = 4096: 16 warps an SM
# do not issue its arithmetic fast enough). Two more forms: build-qs2 = two CTAs an SM (32 warps, two 2 KB
# slots a warp), build-qs3 = the same, each slot refilled before its item is quantised. GPU tests
# (Quantize*), racecheck on LargeProblem (M = 4096 takes the staged form); --quant alternating qs2, qs3 and
# the direct form (BLOCKFP8_QUANT_STAGED=0) three times.
set -u
rm -rf build-qs2 build-qs3 && tar -xJf build-carry/s27c8.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
for b in qs2 qs3; do
  timeout 150 build-$b/tests/blockfp8_gpu_tests --gtest_filter='Quantize*' > $R/gpu_$b.log 2>&1
  echo "gpu_tests $b rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_$b.log | tr '\n' ' ')" >> $S
  timeout 150 compute-sanitizer --tool racecheck build-$b/tests/blockfp8_gpu_tests --gtest_filter='Quantize1x128.LargeProblem' > $R/racecheck_$b.log 2>&1
  echo "racecheck $b rc=$? $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $R/racecheck_$b.log | tr '\n' ' ')" >> $S
done
for rep in 1 2 3; do
  timeout 100 build-qs2/bench/blockfp8-bench --quant --json $R/quant_qs2_$rep.jsonl > /dev/null 2>&1
  timeout 100 build-qs3/bench/blockfp8-bench --quant --json $R/quant_qs3_$rep.jsonl > /dev/null 2>&1
  BLOCKFP8_QUANT_STAGED=0 timeout 100 build-qs3/bench/blockfp8-bench --quant --json $R/quant_direct_$rep.jsonl > /dev/null 2>&1
done
python3 - $R >> $S <<'PY'
import json,sys,glob,statistics,collections
R=sys.argv[1]; d=collections.defaultdict(list)
for f in glob.glob(R+'/quant_*_*.jsonl'):
    side=f.split('quant_')[1].split('_')[0]
    for l in open(f):
        r=json.loads(l); d[(r['config'],r['M'],side)].append(r['cold_us'])
print('| scales | M | qs2 µs | qs3 µs | direct µs | qs2 / direct | qs3 / direct |'); print('|---|---:|---|---|---|---:|---:|')
for (c,m) in sorted(set((k[0],k[1]) for k in d)):
    a=d[(c,m,'qs2')]; b=d[(c,m,'qs3')]; o=d[(c,m,'direct')]
    f=lambda v: ', '.join(f'{x:.2f}' for x in v)
    print(f"| {c} | {m} | {f(a)} | {f(b)} | {f(o)} | {statistics.median(a)/statistics.median(o):.3f} | {statistics.median(b)/statistics.median(o):.3f} |")
PY
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
