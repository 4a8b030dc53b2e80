#!/usr/bin/env bash
# s25 call 9. Three more places where the latest run (ddd2bb2) is slower at a smaller M than at a larger
# one, each forced in three shuffled rounds beside the dispatcher's pick (binary: 100dbde):
#  - 33-64 tokens on long-K weights, with the split-K tiled plan the dispatcher takes at M = 128;
#  - 4096x512 at 65-128 tokens with the tiled plan it takes at M = 64;
#  - 32768x512 at 1-4 tokens with the tiled plan it takes from M = 5.
set -u
rm -rf build-dev && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R
B=build-dev/bench/blockfp8-bench
while read -r shape ms cfg; do
  timeout 60 $B --shape $shape --m $ms --config $cfg --config-rounds 3 --no-floor --no-cublaslt \
    --no-bf16a --no-constw --no-check --json $R/forced.jsonl > /dev/null 2>> $R/stderr.txt || echo "failed $shape" >> $R/stderr.txt
done <<'L'
4608,7168 40,64 tiled_t128_r160_p5_c1x1_k4
4096,7168 40,64 tiled_t128_r144_p5_c1x1_k4
3072,7168 40,64 tiled_t128_r128_p5_c1x1_k4
1536,7168 40,64 tiled_t128_r128_p5_c1x1_k8
6144,7168 40,64 tiled_t128_r160_p5_c1x1_k3
7168,16384 40,64 tiled_t128_r192_p4_c1x1_k3
9216,7168 40,64 tiled_t128_r144_p5_c1x1_k2
2112,7168 40,64 tiled_t128_r144_p5_c1x1_k4
4096,512 72,96,128 tiled_t128_r64_p8_c1x2
3072,1536 72,96,128 tiled_t128_r64_p8_c1x2
32768,512 1,2,3,4 tiled_t128_r128_p5_c1x2
L
python3 - $R/forced.jsonl > $R/table.md <<'P'
import json, sys
d = {}
for r in map(json.loads, open(sys.argv[1])):
    if r.get('cold_us'):
        d.setdefault((r['N'], r['K'], r['M']), {})['forced' if ':' in r['backend'] else 'auto'] = (r['cold_us'], r['config'])
print('| N x K | M | dispatcher us | its config | forced us (median of 3) | forced config | forced / dispatcher |')
print('|---|---:|---:|---|---:|---|---:|')
for k in sorted(d):
    v = d[k]
    if 'auto' in v and 'forced' in v:
        print(f"| {k[0]}x{k[1]} | {k[2]} | {v['auto'][0]:.2f} | {v['auto'][1]} | {v['forced'][0]:.2f} | {v['forced'][1]} | {v['forced'][0] / v['auto'][0]:.3f} |")
P
cat $R/table.md; tail -3 $R/stderr.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
