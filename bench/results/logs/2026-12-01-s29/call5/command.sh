#!/usr/bin/env bash
# s29 call 5 (main 442a09f). Split 4 on rings small enough for two CTAs an SM (so that 33 clusters of 4 fit one round: 132 CTAs)
# on 2112x7168 at 16 and 32 tokens; 1536x7168 at 24-32 tokens split 4 or 6 on full rings against the
# dispatcher's split 8 on paired ones (call 4: split 4 0.945x at M = 32); 4608x7168 at 32 tokens. Three
# shuffled rounds.
set -u
tar -xJf build-carry/s29c4.tar.xz  # the call-4 build, main 442a09f
R=$OUT/run; mkdir -p $R; B=build-m29b/blockfp8-bench
run() {  # name shape m configs...
  local name=$1 shape=$2 m=$3; shift 3
  local a=(); for c in "$@"; do a+=(--config $c); done
  timeout 120 $B --shape $shape --m $m --config-rounds 3 --no-cublaslt --no-bf16a --no-constw --no-check "${a[@]}" \
    --json $R/$name.jsonl > /dev/null 2>$R/$name.err || echo "failed $name"
}
run p16 2112,7168 16 swapab_r64_t16_s3_w2_k2_p6 swapab_r64_t16_s4_w2_k1_p6 swapab_r64_t16_s4_w2_k1_p8 swapab_r64_t16_s4_w2_k2_p4
run p32 2112,7168 32 swapab_r64_t32_s3_w2_k1_p12 swapab_r64_t32_s4_w2_k1_p6 swapab_r64_t32_s4_w2_k1_p8
run q24 1536,7168 24 swapab_r64_t32_s8_w2_k1_p6 swapab_r64_t32_s4_w2_k1_p12 swapab_r64_t32_s4_w2_k1_p8 swapab_r64_t32_s6_w2_k1_p8
run q32 1536,7168 32 swapab_r64_t32_s8_w2_k1_p6 swapab_r64_t32_s4_w2_k1_p12 swapab_r64_t32_s4_w2_k1_p8 swapab_r64_t32_s6_w2_k1_p8
run r32 4608,7168 32 swapab_r64_t32_s3_w2_k1_p6 swapab_r64_t32_s2_w2_k1_p12 swapab_r64_t32_s4_w2_k1_p6
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
