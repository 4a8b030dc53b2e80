#!/usr/bin/env bash
# s25 call 3. Does the tiled kernel beat the decode kernels at 4-32 tokens on wide weights? At M = 64
# the tiled kernel ran 24576x1536 in 15.3 us and 32768x512 in 9.9 us (latest.jsonl at 41cfae4), where
# the dispatcher's decode picks took 17.8-19.4 and 11.2-12.7 us at M = 16-32 (tiled_wins sends M <= 32
# to decode always). Here each weight with more 128-row tiles than about half the SMs, with the tiled
# configuration choose_tiled_config gives it (the same at every M <= 128), forced in three shuffled
# rounds beside the dispatcher's pick, at M = 4-64. Binary: main at the session's start (O).
set -u
rm -rf build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R
B=build-var/O/blockfp8-bench
while read -r shape cfg; do
  timeout 90 $B --shape $shape --m 4,8,16,32,64 --config $cfg --config-rounds 3 --no-floor --no-cublaslt \
    --no-bf16a --no-constw --no-check --json $R/forced.jsonl > /dev/null 2>> $R/stderr.txt || echo "failed $shape" >> $R/stderr.txt
done <<'L'
24576,1536 tiled_t128_r192_p4_c1x2
32768,512 tiled_t128_r128_p5_c1x2
16384,512 tiled_t128_r128_p5_c1x2
12288,1536 tiled_t128_r96_p7_c1x2
8192,512 tiled_t128_r64_p8_c1x2
6144,1536 tiled_t128_r64_p8_c1x2
7168,1024 tiled_t128_r64_p8_c1x2
18432,7168 tiled_t128_r144_p5_c1x2
24576,7168 tiled_t128_r192_p4_c1x2
36864,7168 tiled_t128_r144_p5_c1x2
12288,7168 tiled_t128_r96_p7_c1x2
9216,7168 tiled_t128_r80_p7_c1x2
24576,3072 tiled_t128_r192_p4_c1x2
20480,1536 tiled_t128_r160_p5_c1x2
32768,1024 tiled_t128_r128_p5_c1x2
24576,4096 tiled_t128_r192_p4_c1x2
L
python3 - $R/forced.jsonl > $R/table.md <<'P'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
d = {}
for r in rows:
    if r.get('cold_us'):
        d.setdefault((r['N'], r['K'], r['M']), {})['tiled' if ':' in r['backend'] else 'auto'] = (r['cold_us'], r['config'])
print('| N x K | M | dispatcher us | config | tiled forced us (median of 3) | tiled / dispatcher |')
print('|---|---:|---:|---|---:|---:|')
for k in sorted(d):
    v = d[k]
    if 'auto' in v and 'tiled' in v:
        print(f"| {k[0]}x{k[1]} | {k[2]} | {v['auto'][0]:.2f} | {v['auto'][1]} | {v['tiled'][0]:.2f} | {v['tiled'][0] / v['auto'][0]:.3f} |")
P
cat $R/table.md; tail -5 $R/stderr.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
