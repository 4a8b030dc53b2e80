#!/usr/bin/env bash
# s26 call 4 (build-new = 95851d6). (1) The points a split margin of 1.10 instead of 1.15 would move to split-K
# tiled plans, and more 33-64-token points of the long-K weights where call 3's split plans won, forced in
# three shuffled rounds beside the dispatcher's pick; (2) the tiled k-block slope without the issue turns
# (build-var/noturn), now that the issue path is short, against build-new.
set -u
rm -rf build-new build-var && tar -xJf build-carry/c4.tar.xz
R=$OUT/run; mkdir -p $R
B=build-new/bench/blockfp8-bench
while read -r shape ms cfgs; do
  C=""; for c in ${cfgs//,/ }; do C="$C --config $c"; done
  timeout 150 $B --shape $shape --m $ms $C --config-rounds 3 --no-floor --no-cublaslt \
    --no-bf16a --no-constw --no-check --json $R/forced.jsonl > /dev/null 2>> $R/stderr.txt || echo "failed $shape" >> $R/stderr.txt
done <<'L'
1536,7168 1024 tiled_t128_r192_p4_c1x1_k2
3072,7168 512 tiled_t128_r192_p4_c1x1_k2
6144,7168 256 tiled_t128_r192_p4_c1x1_k2
7168,8192 128 tiled_t128_r128_p5_c1x1_k2
4608,7168 33,48,56 tiled_t128_r160_p5_c1x1_k4
9216,7168 33,48,56 tiled_t128_r144_p5_c1x1_k2
12288,7168 48,56 tiled_t128_r192_p4_c1x1_k2
L
python3 - $R/forced.jsonl > $R/table.md <<'P'
import json, sys
d = {}
for r in map(json.loads, open(sys.argv[1])):
    if r.get('cold_us'):
        k = (r['N'], r['K'], r['M'])
        if ':' in r['backend']: d.setdefault(k, {}).setdefault('forced', {})[r['config']] = r['cold_us']
        else: d.setdefault(k, {})['auto'] = (r['cold_us'], r['config'])
print('| N x K | M | dispatcher us | its config | forced config | forced us (median of 3) | forced / dispatcher |')
print('|---|---:|---:|---|---|---:|---:|')
for k in sorted(d):
    a = d[k].get('auto')
    for c, u in sorted(d[k].get('forced', {}).items()):
        if a: print(f'| {k[0]}x{k[1]} | {k[2]} | {a[0]:.2f} | {a[1]} | {c} | {u:.2f} | {u/a[0]:.3f} |')
P
OUT=$R/slope bash tools/tiled_slope_ab.sh new:$B noturn:build-var/noturn/blockfp8-bench > $R/slope.log 2>&1
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
