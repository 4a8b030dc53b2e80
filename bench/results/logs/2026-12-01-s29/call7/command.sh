#!/usr/bin/env bash
# s29 call 7 (the call-4 build, main 442a09f). The warp-MMA picks at M = 4-8 on long-K weights against the TMA
# kernel's 8-token configuration on a ring of 96 KB of weight an SM (call 3: its rings 0.96-0.98x at
# M = 8 where the TMA kernel was already picked). points.txt: N K M warp-MMA pick, TMA configuration.
# Three shuffled rounds.
set -u
tar -xJf build-carry/s29c4.tar.xz
R=$OUT/run; mkdir -p $R; B=build-m29b/blockfp8-bench
D=bench/results/logs/2026-12-01-s29/call7
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
