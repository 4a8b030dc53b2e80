#!/usr/bin/env bash
# s28 call 5. Stage depth in k-blocks (box length along K: 128 B x k a weight row) for the dispatcher's plan
# shape on 2112x7168 at M = 16 and 32 (64-row tiles, split 3), three shuffled rounds: does a longer run a
# row per request stream faster? Also 4608x7168 and 576x7168 (split 8) at the same M.
set -u
rm -rf build-head && tar -xJf build-carry/s28c5.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
B=build-head/bench/blockfp8-bench
timeout 200 $B --shape 2112,7168 --shape 576,7168 --m 16,32 --config-rounds 3 --no-cublaslt --no-bf16a --no-constw \
  --config swapab_r64_t16_s3_w2_k1_p0 --config swapab_r64_t16_s3_w2_k2_p0 --config swapab_r64_t16_s3_w2_k4_p0 \
  --config swapab_r64_t32_s3_w2_k1_p0 --config swapab_r64_t32_s3_w2_k2_p0 --config swapab_r64_t32_s3_w2_k4_p0 \
  --config swapab_r64_t16_s8_w2_k1_p0 --config swapab_r64_t16_s8_w2_k2_p0 --config swapab_r64_t32_s8_w2_k1_p0 \
  --config swapab_r64_t32_s8_w2_k2_p0 \
  --json $R/kdepth.jsonl > $R/kdepth.md 2>&1
echo "kdepth rc=$?" >> $S
python3 - $R >> $S <<'PY'
import json,sys
R=sys.argv[1]; fl={}
rows=[json.loads(l) for l in open(R+'/kdepth.jsonl')]
for r in rows:
    if r['backend']=='floor': fl[(r['N'],r['K'])]=r['cold_us']
print('| N x K | M | config | cold µs | hot µs | x floor |'); print('|---|---:|---|---:|---:|---:|')
for r in sorted(rows,key=lambda r:(r['N'],r['M'],r.get('cold_us') or 1e9)):
    if r['M']==0 or not r.get('cold_us'): continue
    f=fl.get((r['N'],r['K']))
    print(f"| {r['N']}x{r['K']} | {r['M']} | {r['config']}{' (pick)' if r['backend']=='blockfp8' else ''} | {r['cold_us']:.2f} | {r['hot_us']:.2f} | {r['cold_us']/f if f else 0:.3f} |")
PY
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
