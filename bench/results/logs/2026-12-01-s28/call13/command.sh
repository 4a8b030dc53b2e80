#!/usr/bin/env bash
# s28 call 13. Call 12's ramp of lateness with the cluster index, with programmatic dependent launch off
# (BLOCKFP8_PDL=0): two processes, TIMELINE_REPEATS=12, the dispatcher's plan on 2112x7168 at M = 16; and one
# with PDL on again for the same machine state.
set -u
rm -rf build-tl28 && tar -xJf build-carry/s28c12.tar.xz
R=$OUT/run; mkdir -p $R; T=build-tl28/decode_timeline
for p in 1 2; do BLOCKFP8_PDL=0 TIMELINE_REPEATS=12 timeout 60 $T 2112 7168 16 > $R/nopdl_m16_p$p.txt 2>&1; done
TIMELINE_REPEATS=12 timeout 60 $T 2112 7168 16 > $R/pdl_m16.txt 2>&1
python3 - $R > $R/summary.md <<'PY'
import sys,glob,re
R=sys.argv[1]
for f in sorted(glob.glob(R+'/*.txt')):
    v={}; head=''
    for l in open(f):
        if l.startswith('decode_timeline'): head=l.strip()
        m=re.match(r'\s+CTA\s+(\d+)\s+([+-]\d+) ns',l)
        if m: v[int(m.group(1))]=int(m.group(2))
    cl=[round(sum(v.get(3*c+r,0) for r in range(3))/3) for c in range(33)]
    print(f.rsplit('/',1)[1], head[head.find('cold'):])
    print('  by cluster:', cl)
    for l in open(f):
        if re.match(r'^(entry|producer may load|math done|exit)\s',l): print('  ', l.rstrip())
PY
cat $R/summary.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
