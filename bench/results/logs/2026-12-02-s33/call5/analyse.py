# Each variant's pick (variants.txt) over the best forced configuration timed at that point (run/reduce.jsonl.gz).
# Variants of swapab_cost_ns's reduce_ns: m0 = 400 + 100 s (main), r300 = 300 + 100 s, r200 = 200 + 100 s,
# r100s = 100 s, r400h = 400 + 50 s, r50s = 50 s (landed, faab692), r0 = 0.
import json,collections,math,gzip
cols=[l.split() for l in open('variants.txt')]
V=cols[0][4:]; cols=cols[1:]
d={v:{tuple(map(int,c[:3])):c[3+i] for c in cols} for i,v in enumerate(V)}
t=collections.defaultdict(dict)
for l in gzip.open('run/reduce.jsonl.gz','rt'):
    r=json.loads(l)
    if r['backend'].startswith('blockfp8:') and r.get('cold_us'):
        t[(r['N'],r['K'],r['M'])][r.get('runs_as') or r['config']]=r['cold_us']
print(' '*62+'  '.join(V))
res={v:[] for v in V}
for p in sorted(d['m0']):
    best=min(t[p].values()); bc=min(t[p],key=t[p].get)
    line=[]
    for v in V:
        x=t[p].get(d[v][p])
        if x is None: line.append('  -  '); continue
        res[v].append(x/best); line.append(f"{x/best:.3f}")
    print(f"{p[0]}x{p[1]} M={p[2]:<3} best {best:6.2f} {bc:<30} "+' '.join(line))
for v in V:
    x=res[v]; g=math.exp(sum(map(math.log,x))/len(x))
    print(f"{v:6} n={len(x)} geomean/best {g:.4f} within5% {sum(y<=1.05 for y in x)} worst {max(x):.3f}")
