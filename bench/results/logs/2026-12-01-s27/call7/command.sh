#!/usr/bin/env bash
# s27 call 7. build-qs = wip/quant-staged: the quantiser's staged form (one CTA an SM, 16 warps, each
# streaming its items into its own ring of shared-memory slots by 1-D bulk copies) where every warp of a
# full grid has two items or more, and 128-thread CTAs for the direct form. GPU tests (Quantize*, Fused*),
# memcheck and racecheck on the new StagedForm test; rw_mix on the new build; --quant alternating
# staged / direct (BLOCKFP8_QUANT_STAGED=0, same binary) / main (build-dev = 7474127) three times.
set -u
rm -rf build-qs build-dev && tar -xJf build-carry/s27c7.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv >> $S
timeout 200 build-qs/tests/blockfp8_gpu_tests --gtest_filter='Quantize*:Fused*' > $R/gpu_qs.log 2>&1
echo "gpu_tests qs rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_qs.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure|rror" $R/gpu_qs.log | head -20 >> $S
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool build-qs/tests/blockfp8_gpu_tests --gtest_filter='Quantize1x128.StagedForm:Quantize1x128.LargeProblem' > $R/$tool.log 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $R/$tool.log | tr '\n' ' ')" >> $S
done
timeout 60 build-qs/bench/rw_mix > $R/rw_mix.txt 2>&1; cat $R/rw_mix.txt >> $S
for rep in 1 2 3; do
  timeout 100 build-qs/bench/blockfp8-bench --quant --json $R/quant_staged_$rep.jsonl > $R/quant_staged_$rep.log 2>&1
  BLOCKFP8_QUANT_STAGED=0 timeout 100 build-qs/bench/blockfp8-bench --quant --json $R/quant_direct_$rep.jsonl > $R/quant_direct_$rep.log 2>&1
  timeout 100 build-dev/bench/blockfp8-bench --quant --json $R/quant_main_$rep.jsonl > $R/quant_main_$rep.log 2>&1
done
python3 - $R >> $S <<'PY'
import json,sys,glob,statistics,collections
R=sys.argv[1]; d=collections.defaultdict(list)
for f in glob.glob(R+'/quant_*_*.jsonl'):
    side=f.split('quant_')[1].split('_')[0]
    for l in open(f):
        r=json.loads(l); d[(r['config'],r['M'],side)].append((r['cold_us'], dict(r.get('extra') or {}).get('cold_gbps') or r.get('gbps')))
print('| scales | M | staged µs | direct µs | main µs | staged / main | direct / main |'); print('|---|---:|---|---|---|---:|---:|')
for (c,m) in sorted(set((k[0],k[1]) for k in d)):
    a=[x for x,_ in d[(c,m,'staged')]]; b=[x for x,_ in d[(c,m,'direct')]]; o=[x for x,_ in d[(c,m,'main')]]
    f=lambda v: ', '.join(f'{x:.2f}' for x in v)
    print(f"| {c} | {m} | {f(a)} | {f(b)} | {f(o)} | {statistics.median(a)/statistics.median(o):.3f} | {statistics.median(b)/statistics.median(o):.3f} |")
PY
tail -3 $R/quant_staged_1.log >> $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
