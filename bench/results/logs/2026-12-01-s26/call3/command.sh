#!/usr/bin/env bash
# s26 call 3 (build-new = 95851d6, the tiled kernel 5-7 % faster a k-block). Where that moves the decode/tiled
# crossovers: split-K and other tiled plans forced in three shuffled rounds beside the dispatcher's pick at
# 33-64 tokens (long-K weights) and at 96-128 (weights slower than cuBLASLt there in latest.jsonl).
set -u
rm -rf build-new && tar -xJf build-carry/new.tar.xz
R=$OUT/run; mkdir -p $R
B=build-new/bench/blockfp8-bench
while read -r shape ms cfgs; do
  C=""; for c in ${cfgs//,/ }; do C="$C --config $c"; done
  timeout 120 $B --shape $shape --m $ms $C --config-rounds 3 --no-floor --no-cublaslt \
    --no-bf16a --no-constw --no-check --json $R/forced.jsonl > /dev/null 2>> $R/stderr.txt || echo "failed $shape" >> $R/stderr.txt
done <<'L'
4608,7168 40,64 tiled_t128_r160_p5_c1x1_k4,tiled_t128_r144_p5_c1x1_k4
4096,7168 40,64 tiled_t128_r144_p5_c1x1_k4
3072,7168 40,64 tiled_t128_r128_p5_c1x1_k4
2112,7168 40,64,96,128 tiled_t128_r144_p5_c1x1_k4
6144,7168 40,64 tiled_t128_r160_p5_c1x1_k3
9216,7168 40,64,128 tiled_t128_r144_p5_c1x1_k2,tiled_t128_r192_p4_c1x1_k3
12288,7168 40,64,128 tiled_t128_r192_p4_c1x1_k2,tiled_t128_r96_p7_c1x1
7168,16384 40,64 tiled_t128_r192_p4_c1x1_k3
7168,18432 40,64 tiled_t128_r192_p4_c1x1_k3
7168,8192 64,128 tiled_t128_r128_p5_c1x1_k2,tiled_t128_r192_p4_c1x1_k3
7168,4608 64,128 tiled_t128_r128_p5_c1x1_k2,tiled_t128_r192_p4_c1x1_k3
7168,9216 64 tiled_t128_r192_p4_c1x1_k3
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
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
