#!/usr/bin/env bash
# s28 call 14. Call 13's pattern of lateness by tile with PDL off: does it follow the weight's addresses? The
# same timeline (2112x7168, M = 16, BLOCKFP8_PDL=0, TIMELINE_REPEATS=12) read on three different weight copies
# (TIMELINE_LAST_COPY = 15, the default; 3; 8), each copy a separate allocation.
set -u
rm -rf build-tl28 && tar -xJf build-carry/s28c14.tar.xz
R=$OUT/run; mkdir -p $R; T=build-tl28/decode_timeline
for c in 15 3 8; do BLOCKFP8_PDL=0 TIMELINE_LAST_COPY=$c TIMELINE_REPEATS=12 timeout 60 $T 2112 7168 16 > $R/nopdl_copy$c.txt 2>&1; done
python3 - $R > $R/summary.md <<'PY'
import sys,glob,re
R=sys.argv[1]
for f in sorted(glob.glob(R+'/*.txt')):
    v={}
    for l in open(f):
        m=re.match(r'\s+CTA\s+(\d+)\s+([+-]\d+) ns',l)
        if m: v[int(m.group(1))]=int(m.group(2))
    print(f.rsplit('/',1)[1], [round(sum(v.get(3*c+r,0) for r in range(3))/3) for c in range(33)])
PY
cat $R/summary.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
