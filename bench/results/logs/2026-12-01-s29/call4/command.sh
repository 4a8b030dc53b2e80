#!/usr/bin/env bash
# s29 call 4 (main 442a09f). 56-row tiles at 16-32 tokens on short slices: 2112x7168 split 3 as 38 tiles
# (114 CTAs) against 33 of 64 rows (99 CTAs), 1536x7168 split 4 as 28 tiles (112) against 24 (96);
# the straddle fill rule takes them only from 32-k-block slices (7168x2048 lost). Three shuffled rounds.
set -u
tar -xJf build-carry/s29c4.tar.xz
R=$OUT/run; mkdir -p $R; B=build-m29b/blockfp8-bench
run() {  # name shape m configs...
  local name=$1 shape=$2 m=$3; shift 3
  local a=(); for c in "$@"; do a+=(--config $c); done
  timeout 120 $B --shape $shape --m $m --config-rounds 3 --no-cublaslt --no-bf16a --no-constw --no-check "${a[@]}" \
    --json $R/$name.jsonl > /dev/null 2>$R/$name.err || echo "failed $name"
}
run p16 2112,7168 16 swapab_r64_t16_s3_w2_k2_p6 swapab_r56_t16_s3_w2_k1_p13 swapab_r56_t16_s3_w2_k1_p10 swapab_r56_t16_s3_w2_k2_p6 swapab_r56_t16_s3_w2_k2_p7
run p24 2112,7168 24 swapab_r64_t32_s3_w2_k1_p12 swapab_r56_t32_s3_w2_k1_p13 swapab_r56_t32_s3_w2_k1_p10 swapab_r56_t32_s3_w2_k2_p6
run p32 2112,7168 32 swapab_r64_t32_s3_w2_k1_p12 swapab_r56_t32_s3_w2_k1_p13 swapab_r56_t32_s3_w2_k1_p10 swapab_r56_t32_s3_w2_k2_p6
run q16 1536,7168 16 swapab_r64_t16_s4_w2_k1_p12 swapab_r56_t16_s4_w2_k1_p13 swapab_r56_t16_s4_w2_k1_p10
run q32 1536,7168 32 swapab_r64_t32_s8_w2_k1_p6 swapab_r56_t32_s4_w2_k1_p13 swapab_r64_t32_s4_w2_k1_p12
python3 - $R > $R/summary.md <<'PY'
import json,sys,glob
R=sys.argv[1]
for f in sorted(glob.glob(R+'/*.jsonl')):
    rows=[json.loads(l) for l in open(f)]
    fl=[r['cold_us'] for r in rows if r['backend']=='floor' and r.get('cold_us')]
    pick=[r for r in rows if r['backend']=='blockfp8']
    base=[r for r in rows if pick and r['backend']=='blockfp8:'+pick[0]['config']]
    b=base[0]['cold_us'] if base else None
    print(f"## {f.split('/')[-1]} floor {fl[0] if fl else 0:.2f}, pick {pick[0]['config'] if pick else '?'}")
    for r in rows:
        if r['backend'].startswith('blockfp8:') and r.get('cold_us'):
            print(f"  {r['config']:34s} {r['cold_us']:6.2f}  {r['cold_us']/b if b else 0:.3f}  [{r.get('cold_min_us',0):.2f}, {r.get('cold_max_us',0):.2f}]")
PY
cat $R/summary.md; grep -h "skip\|refus" $R/*.err | head
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
