#!/usr/bin/env bash
# s28 call 6. The decode kernel's stage depth (k-blocks a stage) re-measured against the dispatcher's choice
# at M = 16, 32 and 64 on every DeepSeek weight the TMA decode kernel serves there (points.txt: N K M pick
# alternatives), each point its own run, the pick and the alternatives in three shuffled rounds: call 5 found k1 0.974x the pick (k2) on
# 2112x7168 at M = 32 and k2 0.953x the pick (k1) on 576x7168 at M = 16.
set -u
rm -rf build-head && tar -xJf build-carry/s28c5.tar.xz
R=$OUT/run; mkdir -p $R; B=build-head/bench/blockfp8-bench
D=bench/results/logs/2026-12-01-s28/call6
while read n k m pick a1 a2; do
  timeout 30 $B --shape $n,$k --m $m --config-rounds 3 --no-cublaslt --no-bf16a --no-constw --no-floor --no-check \
    --config $pick --config $a1 --config $a2 --json $R/p_${n}_${k}_${m}.jsonl > /dev/null 2>&1 || echo "failed $n $k $m"
done < $D/points.txt
python3 - $R > $R/summary.md <<'PY'
import json,sys,glob
R=sys.argv[1]
print('| N x K | M | pick | pick µs | alt | alt µs | alt / pick |'); print('|---|---:|---|---:|---|---:|---:|')
for f in sorted(glob.glob(R+'/p_*.jsonl')):
    rows=[json.loads(l) for l in open(f)]
    pick=[r['config'] for r in rows if r['backend']=='blockfp8']
    pk=[r for r in rows if pick and r['backend']=='blockfp8:'+pick[0] and r.get('cold_us')]
    if not pk: continue
    p=pk[0]
    for r in rows:
        if r['backend'].startswith('blockfp8:') and r is not p and r.get('cold_us'):
            print(f"| {p['N']}x{p['K']} | {p['M']} | {p['config']} | {p['cold_us']:.2f} | {r['config']} | {r['cold_us']:.2f} | {r['cold_us']/p['cold_us']:.3f} |")
PY
cat $R/summary.md
tar -C $OUT -czf $OUT/run.tgz run
