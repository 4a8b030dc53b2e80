#!/usr/bin/env bash
# s27 call 15. build-fin = wip/quant-finite-fast-path: where neither of a warp's two groups holds a NaN or an
# inf (amax by max.NaN, one warp vote), the quantiser leaves out the clamp (the e4m3 cast's saturation gives
# the same bytes for finite quotients); otherwise the old path. call 14's ncu: the quantiser is issue-bound.
# GPU tests Quantize* and Fused* (bit-exact against the reference, NaN / inf groups included), memcheck on
# Quantize1x128.*; --quant alternating with main (build-main = ce59a62) three times; rw_mix once each.
set -u
rm -rf build-fin build-main && tar -xJf build-carry/s27c15.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
timeout 200 build-fin/tests/blockfp8_gpu_tests --gtest_filter='Quantize*:Fused*' > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
timeout 150 compute-sanitizer --tool memcheck build-fin/tests/blockfp8_gpu_tests --gtest_filter='Quantize1x128.*' > $R/memcheck.log 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $R/memcheck.log | tr '\n' ' ')" >> $S
for rep in 1 2 3; do
  for side in fin main; do
    timeout 100 build-$side/bench/blockfp8-bench --quant --json $R/quant_${side}_$rep.jsonl > $R/quant_${side}_$rep.md 2>&1
  done
done
python3 - $R >> $S <<'PY'
import json,sys,glob,statistics,collections
R=sys.argv[1]; d=collections.defaultdict(list)
for f in glob.glob(R+'/quant_*_*.jsonl'):
    side=f.split('quant_')[1].split('_')[0]
    for l in open(f):
        r=json.loads(l)
        if r['backend']!='quantize_1x128': continue
        d[(r['config'],r['M'],side)].append(r['cold_us'])
print('| scales | M | fast path µs | main µs | ratio |'); print('|---|---:|---|---|---:|')
for (c,m) in sorted(set((k[0],k[1]) for k in d)):
    a=d[(c,m,'fin')]; o=d[(c,m,'main')]; f=lambda v: ', '.join(f'{x:.2f}' for x in v)
    print(f"| {c} | {m} | {f(a)} | {f(o)} | {statistics.median(a)/statistics.median(o):.3f} |")
PY
grep -h "streaming floor read" $R/quant_fin_*.md >> $S
for side in fin main; do timeout 60 build-$side/bench/rw_mix > $R/rw_mix_$side.txt 2>&1; echo "rw_mix $side"; grep -E "^\| (copy|quant)" $R/rw_mix_$side.txt; done >> $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
