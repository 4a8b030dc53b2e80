#!/usr/bin/env bash
# s24 call 11 (build-dev = 41cfae4). Would more token tiles fill the SMs at M = 33-64 on 2112x7168, as two
# 64-token tiles do at 65-128? Forced in three shuffled rounds beside the dispatcher's pick (64-token
# tile, split 3, 99 CTAs): two 32-token tiles at split 2 (132 CTAs), and at split 1 (66).
set -u
rm -rf build-dev && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R
timeout 100 build-dev/bench/blockfp8-bench --shape 2112,7168 --m 40,48,56,64 --config swapab_r64_t32_s2_w2_k0_p0 \
  --config swapab_r64_t32_s1_w2_k0_p0 --config swapab_r64_t64_s3_w2_k1_p0 --config-rounds 3 --no-floor --no-cublaslt \
  --no-bf16a --no-constw --no-check --json $R/forced.jsonl > $R/forced.md 2> $R/forced.err
echo "rc=$?" >> $R/forced.err
python3 - $R/forced.jsonl <<'PY' | tee $R/forced_table.md
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print("| M | backend | config | cold us | min | max |\n|---:|---|---|---:|---:|---:|")
for r in sorted(rows, key=lambda r: (r["M"], r["backend"])):
    if r["backend"].startswith("blockfp8") and r.get("cold_us"):
        print(f"| {r['M']} | {r['backend']} | `{r['config']}` | {r['cold_us']:.2f} | {r.get('cold_min_us') or ''} | {r.get('cold_max_us') or ''} |")
PY
tail -2 $R/forced.err
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
