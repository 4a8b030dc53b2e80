#!/usr/bin/env bash
# s28 call 12. Stragglers: does lateness follow the CTA (the bytes it reads) or the SM it runs on? The
# dispatcher's plan on 2112x7168 at M = 16 (99 CTAs, clusters of 3), timed in three separate processes with
# TIMELINE_REPEATS=12 each; the probe prints, per SM and per CTA, the mean lateness of the math's end
# against the median CTA, and which SMs each CTA ran on.
set -u
rm -rf build-tl28 && tar -xJf build-carry/s28c12.tar.xz
R=$OUT/run; mkdir -p $R; T=build-tl28/decode_timeline
for p in 1 2 3; do TIMELINE_REPEATS=12 timeout 60 $T 2112 7168 16 > $R/late_m16_p$p.txt 2>&1; done
TIMELINE_REPEATS=12 timeout 60 $T 2112 7168 floor > $R/late_floor.txt 2>&1
python3 - $R > $R/summary.md <<'PY'
import sys,glob,re,statistics
R=sys.argv[1]
runs=[]
for f in sorted(glob.glob(R+'/late_m16_p*.txt')):
    cta={}
    for l in open(f):
        m=re.match(r'\s+CTA\s+(\d+)\s+([+-]\d+) ns\s+SMs (.*)',l)
        if m: cta[int(m.group(1))]=(int(m.group(2)),[int(x) for x in m.group(3).split()])
    runs.append(cta)
print('processes', len(runs), 'CTAs', [len(r) for r in runs])
print('distinct SMs per CTA within a process (max):', [max(len(v[1]) for v in r.values()) for r in runs])
common=set.intersection(*[set(r) for r in runs])
def corr(a,b):
    ma,mb=statistics.mean(a),statistics.mean(b)
    sa=sum((x-ma)**2 for x in a)**.5; sb=sum((y-mb)**2 for y in b)**.5
    return sum((x-ma)*(y-mb) for x,y in zip(a,b))/(sa*sb) if sa and sb else float('nan')
for i in range(len(runs)):
    for j in range(i+1,len(runs)):
        c=sorted(common)
        print(f'process {i+1} vs {j+1}: lateness by CTA corr {corr([runs[i][k][0] for k in c],[runs[j][k][0] for k in c]):.2f};',
              f'same SM for {sum(1 for k in c if runs[i][k][1]==runs[j][k][1])} of {len(c)} CTAs')
        sm_i={s:runs[i][k][0] for k in c for s in runs[i][k][1][:1]}; sm_j={s:runs[j][k][0] for k in c for s in runs[j][k][1][:1]}
        cs=sorted(set(sm_i)&set(sm_j))
        print(f'   lateness by SM corr {corr([sm_i[s] for s in cs],[sm_j[s] for s in cs]):.2f} over {len(cs)} SMs')
for n,r in enumerate(runs):
    late=sorted(r.items(), key=lambda kv:-kv[1][0])[:8]
    print(f'process {n+1} latest CTAs:', ', '.join(f'CTA {k} (SM {v[1][0]}) {v[0]:+d}' for k,v in late))
PY
cat $R/summary.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
