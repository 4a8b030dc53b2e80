#!/usr/bin/env bash
# s27 call 6. (1) bench/probes/rw_mix: the quantiser's access pattern with no math (reads, writes, both) and
# the quantiser itself, M = 4096, K = 7168: is 3.2-3.5 TB/s the memory system's rate for this mix?
# (2) Two quantiser variants against main (build-dev = 7474127 + the probe), alternating three times:
# build-q128 = 128-thread CTAs (wip/quant-cta128), build-qcs = X loaded with ld.global.cs (wip/quant-ldcs).
set -u
rm -rf build-dev build-q128 build-qcs && tar -xJf build-carry/s27c6.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv >> $S
timeout 60 build-dev/bench/rw_mix > $R/rw_mix.txt 2>&1; echo "rw_mix rc=$?" >> $S; cat $R/rw_mix.txt >> $S
timeout 60 build-dev/bench/rw_mix 1024 7168 > $R/rw_mix_1024.txt 2>&1; cat $R/rw_mix_1024.txt >> $S
for rep in 1 2 3; do
  for side in q128 qcs dev; do
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
print('| scales | M | q128 µs | ldcs µs | main µs | q128 / main | ldcs / main |'); print('|---|---:|---|---|---|---:|---:|')
for (c,m) in sorted(set((k[0],k[1]) for k in d)):
    a=d[(c,m,'q128')]; b=d[(c,m,'qcs')]; o=d[(c,m,'dev')]
    f=lambda v: ', '.join(f'{x:.2f}' for x in v)
    print(f"| {c} | {m} | {f(a)} | {f(b)} | {f(o)} | {statistics.median(a)/statistics.median(o):.3f} | {statistics.median(b)/statistics.median(o):.3f} |")
PY
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
