# Each variant's pick (variants.txt) over the best forced configuration timed at that point (run/splitcost.jsonl).
import json,collections,math,sys
V=['base','a','r1','c6','c8','c10','c12']
cols=[l.split() for l in open('variants.txt') if not l.startswith('#')]
d={v:{tuple(map(int,c[:3])):c[3+i] for c in cols} for i,v in enumerate(V)}
t=collections.defaultdict(dict)
import gzip
for l in gzip.open('run/splitcost.jsonl.gz','rt'):
    r=json.loads(l)
    if r['backend'].startswith('blockfp8:') and r.get('cold_us'):
        t[(r['N'],r['K'],r['M'])][r.get('runs_as') or r['config']]=r['cold_us']
res={v:[] for v in V}; missing=collections.Counter()
rows=[]
for p in sorted(t, key=lambda p:(p[0]*p[1],p)):
    best=min(t[p].values())
    line=[]
    for v in V:
        c=d[v].get(p)
        if c in t[p]: res[v].append(t[p][c]/best); line.append(f"{t[p][c]/best:.3f}")
        else: missing[v]+=1; line.append('  -  ')
    bestc=min(t[p],key=t[p].get)
    rows.append(f"{p[0]}x{p[1]} M={p[2]:<5} best {best:7.2f} {bestc:<30} "+' '.join(line))
print(' '*58+'  '.join(V))
print('\n'.join(rows))
for v in V:
    x=res[v]; g=math.exp(sum(map(math.log,x))/len(x))
    print(f"{v:5} n={len(x)} geomean/best {g:.4f} within5% {sum(y<=1.05 for y in x)} worst {max(x):.3f} missing {missing[v]}")
