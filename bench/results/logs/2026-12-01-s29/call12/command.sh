#!/usr/bin/env bash
# s29 call 12 (build-fin, 72cfd29). Call 7 found the TMA kernel faster than the warp-MMA picks on 1536x7168 and
# 2112x7168 at M = 8 (16-row strips) and 6144x7168 at M = 4 (32-row strips, well over a round). More of both:
# 16-row strips at M = 4-8, 32-row many-strip picks at M = 2-4 on the long-K weights, against the TMA
# kernel's 8-token configuration on a ring of 96 KB of weight an SM (call 3: its rings 0.96-0.98x at
# M = 8 where the TMA kernel was already picked). points.txt: N K M warp-MMA pick, TMA configuration.
# Three shuffled rounds.
set -u
tar -xJf build-carry/s29c12.tar.xz
R=$OUT/run; mkdir -p $R; B=build-fin/bench/blockfp8-bench
D=bench/results/logs/2026-12-01-s29/call12
while read n k m a b; do
  timeout 60 $B --shape $n,$k --m $m --config-rounds 3 --no-cublaslt --no-bf16a --no-constw --no-floor --no-check \
    --config $a --config $b --json $R/p_${n}_${k}_${m}.jsonl > /dev/null 2>$R/err_${n}_${k}_${m}.txt || echo "failed $n $k $m"
done < $D/points.txt
python3 - $R $D/points.txt > $R/summary.md <<'PY'
import json,sys
R=sys.argv[1]
print('| N x K | M | warp-MMA | µs | TMA | µs | TMA / warp-MMA |\n|---|---:|---|---:|---|---:|---:|')
for l in open(sys.argv[2]):
    n,k,m,a,b=l.split()
    rows={r['config']:r for r in map(json.loads,open(f'{R}/p_{n}_{k}_{m}.jsonl')) if r['backend'].startswith('blockfp8:')}
    if a in rows and b in rows:
        print(f"| {n}x{k} | {m} | {a} | {rows[a]['cold_us']:.2f} | {b} | {rows[b]['cold_us']:.2f} | {rows[b]['cold_us']/rows[a]['cold_us']:.3f} |")
PY
cat $R/summary.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
