#!/usr/bin/env bash
# s27 call 2. Two candidates against main (build-dev = 7474127), each in its own build:
#  build-q  = wip/quant-persistent: the quantiser on a resident grid, each warp walking items a grid apart
#             with the next item's loads in flight;
#  build-ws = wip/warpmma-scales-upfront: the warp-MMA kernel's scales loaded once into a table.
# GPU tests of what each touches (+ memcheck), then interleaved A/Bs: --quant alternating q/main three
# times each; the warp-MMA plans (M = 1-8) of seven weights by tools/binary_ab.sh.
set -u
rm -rf build-q build-ws build-dev && tar -xJf build-carry/s27c2.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv >> $S
timeout 150 build-q/tests/blockfp8_gpu_tests --gtest_filter='Quantize*:Fused*' > $R/gpu_q.log 2>&1
echo "gpu_tests q rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_q.log | tr '\n' ' ')" >> $S
timeout 150 compute-sanitizer --tool memcheck build-q/tests/blockfp8_gpu_tests --gtest_filter='Quantize1x128.*' > $R/memcheck_q.log 2>&1
echo "memcheck q rc=$? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $R/memcheck_q.log | tr '\n' ' ')" >> $S
timeout 200 build-ws/tests/blockfp8_gpu_tests --gtest_filter='GemmTest.*:Fused*:Reliability*:Occupancy*' > $R/gpu_ws.log 2>&1
echo "gpu_tests ws rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_ws.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure" $R/gpu_q.log $R/gpu_ws.log | head -20 >> $S
timeout 150 compute-sanitizer --tool racecheck build-ws/tests/blockfp8_gpu_tests --gtest_filter='GemmTest.ForcedWarpMmaLayouts' > $R/racecheck_ws.log 2>&1
echo "racecheck ws rc=$? $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $R/racecheck_ws.log | tr '\n' ' ')" >> $S
for rep in 1 2 3; do
  for side in q dev; do
    timeout 100 build-$side/bench/blockfp8-bench --quant --json $R/quant_${side}_$rep.jsonl > $R/quant_${side}_$rep.log 2>&1
  done
done
python3 - $R >> $S <<'PY'
import json,sys,glob,statistics,collections
R=sys.argv[1]; d=collections.defaultdict(list)
for f in glob.glob(R+'/quant_*_*.jsonl'):
    side=f.split('quant_')[1].split('_')[0]
    for l in open(f):
        r=json.loads(l); d[(r['config'],r['M'],side)].append(r['cold_us'])
print('| scales | M | q µs | main µs | q / main |'); print('|---|---:|---|---|---:|')
for (c,m) in sorted(set((k[0],k[1]) for k in d)):
    q=d[(c,m,'q')]; o=d[(c,m,'dev')]
    print(f"| {c} | {m} | {', '.join(f'{x:.2f}' for x in q)} | {', '.join(f'{x:.2f}' for x in o)} | {statistics.median(q)/statistics.median(o):.3f} |")
PY
OUT=$R bash tools/binary_ab.sh warpmma build-ws/bench/blockfp8-bench build-dev/bench/blockfp8-bench \
  --shape 2112,7168 --shape 576,7168 --shape 1536,7168 --shape 3072,1536 --shape 4096,512 --shape 24576,7168 --shape 7168,16384 \
  --m 1,2,4,8 --no-cublaslt --no-floor > /dev/null 2>&1
cat $R/warpmma_ab.md >> $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
