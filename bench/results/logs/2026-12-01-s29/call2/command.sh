#!/usr/bin/env bash
# s29 call 2. The decode kernel's ring depth (stages) against the dispatcher's, which fills shared memory
# (up to 1.5 slices): call 1 found 6 stages 0.969x the pick's 10 on 2112x7168 at M = 16, and 8-12 stages
# 0.988x its 16 at M = 32. Every TMA-kernel pick at M = 16, 32, 64 with 9 or more stages (points.txt: N K M
# pick, then the same configuration at about 0.5, 0.65 and 0.8 of its stages), each point its own run,
# three shuffled rounds (build of main 3869726).
set -u
tar -xJf build-carry/s29c1.tar.xz
R=$OUT/run; mkdir -p $R; B=build-m29/blockfp8-bench
D=bench/results/logs/2026-12-01-s29/call2
SECONDS=0
while read n k m pick a1 a2 a3; do
  args=(--config $pick --config $a1); [ -n "${a2:-}" ] && args+=(--config $a2); [ -n "${a3:-}" ] && args+=(--config $a3)
  timeout 40 $B --shape $n,$k --m $m --config-rounds 3 --no-cublaslt --no-bf16a --no-constw --no-floor --no-check \
    "${args[@]}" --json $R/p_${n}_${k}_${m}.jsonl > /dev/null 2>$R/err_${n}_${k}_${m}.txt || echo "failed $n $k $m"
  [ $SECONDS -gt 480 ] && { echo "stopped at $n $k $m after $SECONDS s"; break; }
done < $D/points.txt
echo "seconds $SECONDS"
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
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
