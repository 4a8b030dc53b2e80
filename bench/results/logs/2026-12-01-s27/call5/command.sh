#!/usr/bin/env bash
# s27 call 5. The warp-MMA kernel at 1-8 tokens with 32-row strips split over clusters of 2 (half the token
# rows a weight byte, at the price of a DSMEM sum), and 16-row strips split 2 (two CTAs an SM), forced against
# the dispatcher's picks (unsplit 16- or 32-row strips), three shuffled rounds, on main (build-dev = 7474127).
set -u
rm -rf build-dev && tar -xJf build-carry/s27c5.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv >> $S
timeout 400 build-dev/bench/blockfp8-bench --shape 2112,7168 --shape 1536,7168 --shape 4096,7168 --shape 3072,1536 \
  --shape 24576,1536 --shape 4608,7168 --m 1,2,4,8 \
  --config warpmma_r32_t8_s2_w2_k2 --config warpmma_r32_t8_s2_w2_k4 --config warpmma_r16_t8_s2_w2_k4 \
  --config warpmma_r16_t8_s2_w2_k2 --config warpmma_r32_t8_s1_w2_k4 --config warpmma_r16_t8_s1_w2_k8 \
  --config-rounds 3 --no-cublaslt --no-bf16a --no-constw --json $R/forced.jsonl > $R/forced.log 2>&1
echo "forced rc=$?" >> $S
python3 - $R >> $S <<'PY'
import json,sys,collections,statistics
R=sys.argv[1]; d=collections.defaultdict(list); fl={}
for l in open(R+'/forced.jsonl'):
    r=json.loads(l)
    if r['backend']=='floor': fl[(r['N'],r['K'])]=r['cold_us']; continue
    if not r.get('cold_us') or r['backend']=='empty': continue
    c=('PICK:'+r['config']) if r['backend']=='blockfp8' else r['backend'].split(':',1)[1]
    d[(r['N'],r['K'],r['M'],c)].append(r['cold_us'])
for p in sorted(set(k[:3] for k in d)):
    items=sorted((statistics.median(v),c) for (n,k,m,c),v in d.items() if (n,k,m)==p)
    pk=[t for t,c in items if c.startswith('PICK')]; pick=pk[0] if pk else float('nan')
    print(p, 'floor %.2f'%fl.get(p[:2],0), ' | '.join(f"{c.replace('warpmma_','')}:{t:.2f}({t/pick:.3f})" for t,c in items))
PY
grep -c '"error":"' $R/forced.jsonl >> $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
