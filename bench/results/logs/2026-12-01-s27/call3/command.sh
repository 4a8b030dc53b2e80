#!/usr/bin/env bash
# s27 call 3. (1) Forced warp-MMA plans at 12-32 tokens, split over clusters where the strips are few
# (never measured at M > 8 with a split), against the dispatcher's TMA decode picks, three shuffled rounds,
# on main (build-dev = 7474127). (2) The quantiser at __launch_bounds__(256, 6) (build-q6 = wip/quant-occupancy6)
# against main, alternating three times: is its bandwidth set by the warps an SM holds?
set -u
rm -rf build-q6 build-dev && tar -xJf build-carry/s27c3.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv >> $S
for rep in 1 2 3; do
  for side in q6 dev; do
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
print('| scales | M | q6 µs | main µs | q6 / main |'); print('|---|---:|---|---|---:|')
for (c,m) in sorted(set((k[0],k[1]) for k in d)):
    q=d[(c,m,'q6')]; o=d[(c,m,'dev')]
    print(f"| {c} | {m} | {', '.join(f'{x:.2f}' for x in q)} | {', '.join(f'{x:.2f}' for x in o)} | {statistics.median(q)/statistics.median(o):.3f} |")
PY
timeout 300 build-dev/bench/blockfp8-bench --shape 2112,7168 --shape 576,7168 --shape 1536,7168 --shape 4096,7168 \
  --shape 3072,1536 --shape 7168,2048 --m 12,16,24,32 \
  --config warpmma_r32_t32_s2_w2_k2 --config warpmma_r16_t32_s1_w2_k2 --config warpmma_r32_t32_s1_w2_k2 \
  --config warpmma_r32_t16_s2_w2_k4 --config warpmma_r16_t16_s1_w2_k4 --config warpmma_r16_t16_s1_w4_k4 \
  --config warpmma_r32_t32_s4_w2_k2 --config warpmma_r16_t32_s3_w2_k2 \
  --config-rounds 3 --no-cublaslt --no-bf16a --no-constw --json $R/forced.jsonl > $R/forced.log 2>&1
echo "forced rc=$?" >> $S
python3 - $R >> $S <<'PY'
import json,sys,collections,statistics
R=sys.argv[1]; d=collections.defaultdict(list); fl={}
for l in open(R+'/forced.jsonl'):
    r=json.loads(l)
    if r['backend']=='floor': fl[(r['N'],r['K'])]=r['cold_us']; continue
    if not r.get('cold_us'): continue
    d[(r['N'],r['K'],r['M'],r['config'] if r['backend']!='blockfp8' else 'PICK:'+r['config'])].append(r['cold_us'])
for p in sorted(set(k[:3] for k in d)):
    items=sorted((statistics.median(v),c) for (n,k,m,c),v in d.items() if (n,k,m)==p)
    pick=[t for t,c in items if c.startswith('PICK')][0]
    print(p, 'floor', fl.get(p[:2]), ' | '.join(f"{c}:{t:.2f}({t/pick:.2f})" for t,c in items))
PY
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
