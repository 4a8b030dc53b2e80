#!/usr/bin/env bash
# s28 call 2. What paces the unsplit 16-row plan (132 CTAs, no split-K tail) on 2112x7168, which call 1
# put at 2.1-2.5x the floor, hot L2 nearly as slow as cold: forced configs on three builds of f242367,
# the main one, BLOCKFP8_DIAG_NO_TOKENS (no token tiles loaded) and BLOCKFP8_DIAG_NO_WGMMA+NO_PROMOTE
# (math warps only wait for stages and hand them back). Diagnostic builds' results are wrong: --no-check.
set -u
rm -rf build-diag-notok build-diag-nomath build-main28 && tar -xJf build-carry/s28c2.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
for b in main28 diag-notok diag-nomath; do
  bin=build-$b/blockfp8-bench; [ -x $bin ] || bin=build-$b/bench/blockfp8-bench
  timeout 120 $bin --shape 2112,7168 --m 1,8 --config-rounds 3 --no-cublaslt --no-bf16a --no-constw --no-check \
    --config swapab_r16_t8_s1_w2_k4_p0 --config swapab_r16_t8_s1_w2_k2_p0 --config swapab_r64_t8_s3_w2_k2_p0 \
    --json $R/t8_$b.jsonl > $R/t8_$b.md 2>&1
  timeout 120 $bin --shape 2112,7168 --m 16 --config-rounds 3 --no-cublaslt --no-bf16a --no-constw --no-check \
    --config swapab_r16_t16_s1_w2_k4_p0 --config swapab_r16_t16_s1_w2_k2_p0 --config swapab_r64_t16_s3_w2_k2_p0 \
    --json $R/t16_$b.jsonl > $R/t16_$b.md 2>&1
done
python3 - $R >> $S <<'PY'
import json,sys,glob,collections
R=sys.argv[1]; d={}; fl={}
for f in sorted(glob.glob(R+'/t*_*.jsonl')):
    b=f.rsplit('/',1)[1].split('_',1)[1][:-6]
    for l in open(f):
        r=json.loads(l)
        if r['backend']=='floor': fl[b]=r['cold_us']; continue
        if r['M']==0 or not r.get('cold_us'): continue
        d[(r['M'],r['config'],r['backend']=='blockfp8',b)]=(r['cold_us'],r['hot_us'])
bs=['main28','diag-notok','diag-nomath']
print('floor cold µs:',{b:round(v,2) for b,v in fl.items()})
print('| M | config | '+' | '.join(f'{b} cold / hot' for b in bs)+' |'); print('|---:|---|'+'---|'*len(bs))
for k in sorted(set((k[0],k[1],k[2]) for k in d)):
    cells=[]
    for b in bs:
        v=d.get(k+(b,)); cells.append(f'{v[0]:.2f} / {v[1]:.2f}' if v else '-')
    print(f"| {k[0]} | {k[1]}{' (pick)' if k[2] else ''} | "+' | '.join(cells)+' |')
PY
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
