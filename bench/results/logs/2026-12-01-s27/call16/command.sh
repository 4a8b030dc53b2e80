#!/usr/bin/env bash
# s27 call 16. build-item = wip/quant-finite-item: call 15's fast path (no clamp where no NaN or inf), decided
# once an item (one vote after all its groups' amax) so the groups interleave; 64 registers (48 before).
# Call 15 (a vote a group): 0.96x at M = 4096 (FP32 scales) but 1.03-1.05x at M = 1-128.
# GPU tests Quantize* and Fused* (bit-exact against the reference, NaN / inf groups included), memcheck on
# Quantize1x128.*; --quant alternating with main (build-main = ce59a62) three times; rw_mix once each.
set -u
rm -rf build-item build-main && tar -xJf build-carry/s27c16.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
timeout 200 build-item/tests/blockfp8_gpu_tests --gtest_filter='Quantize*:Fused*' > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
timeout 150 compute-sanitizer --tool memcheck build-item/tests/blockfp8_gpu_tests --gtest_filter='Quantize1x128.*' > $R/memcheck.log 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $R/memcheck.log | tr '\n' ' ')" >> $S
for rep in 1 2 3; do
  for side in item main; do
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
    a=d[(c,m,'item')]; o=d[(c,m,'main')]; f=lambda v: ', '.join(f'{x:.2f}' for x in v)
    print(f"| {c} | {m} | {f(a)} | {f(o)} | {statistics.median(a)/statistics.median(o):.3f} |")
PY
grep -h "streaming floor read" $R/quant_item_*.md >> $S
for side in item main; do timeout 60 build-$side/bench/rw_mix > $R/rw_mix_$side.txt 2>&1; echo "rw_mix $side"; grep -E "^\| (copy|quant)" $R/rw_mix_$side.txt; done >> $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
