#!/usr/bin/env bash
# s29 call 1. (a) wip/cta-barrier-fence (06da70d) against main (3869726), interleaved twice
# (tools/binary_ab.sh): the decode kernel's barrier initialisation fenced by the async-proxy fence alone
# wherever no other CTA arrives on its barriers (all but the owner's-sum rank 0), instead of
# fence.mbarrier_init.release.cluster. (b) the primary shape's ring depth at M = 16 and 32: rings small
# enough for two CTAs an SM (the next call's clusters could then launch during this call), and the
# splits that use 132 SMs (48-row tiles split 3, 64-row split 4, 32-row split 2), three shuffled rounds.
set -u
tar -xJf build-carry/s29c1.tar.xz
R=$OUT/run; mkdir -p $R
NEW=build-fence/blockfp8-bench OLD=build-m29/blockfp8-bench
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv > $R/gpu.txt
OUT=$R bash tools/binary_ab.sh fence $NEW $OLD --shape 2112,7168 --shape 4096,7168 --shape 7168,2304 \
  --shape 576,7168 --shape 1536,7168 --m 8,16,32,64 --no-cublaslt --no-floor > $R/fence_stdout.txt 2>&1
C16="swapab_r64_t16_s3_w2_k2_p10 swapab_r64_t16_s3_w2_k2_p4 swapab_r64_t16_s3_w2_k2_p5 swapab_r64_t16_s3_w2_k2_p6
 swapab_r64_t16_s3_w2_k2_p8 swapab_r64_t16_s3_w2_k1_p8 swapab_r64_t16_s3_w2_k1_p12 swapab_r48_t16_s3_w2_k0_p0
 swapab_r64_t16_s4_w2_k0_p0 swapab_r32_t16_s2_w2_k0_p0 swapab_r32_t16_s4_w2_k0_p0"
C32="swapab_r64_t32_s3_w2_k1_p16 swapab_r64_t32_s3_w2_k1_p6 swapab_r64_t32_s3_w2_k1_p8 swapab_r64_t32_s3_w2_k1_p10
 swapab_r64_t32_s3_w2_k1_p12 swapab_r64_t32_s3_w2_k2_p4 swapab_r64_t32_s3_w2_k2_p8 swapab_r48_t32_s3_w2_k0_p0
 swapab_r64_t32_s4_w2_k0_p0 swapab_r32_t32_s2_w2_k0_p0"
a=(); for c in $C16; do a+=(--config $c); done
timeout 200 $OLD --shape 2112,7168 --m 16 --config-rounds 3 --no-cublaslt --no-bf16a --no-constw --no-check \
  "${a[@]}" --json $R/depth16.jsonl > $R/depth16.txt 2>&1
a=(); for c in $C32; do a+=(--config $c); done
timeout 200 $OLD --shape 2112,7168 --m 32 --config-rounds 3 --no-cublaslt --no-bf16a --no-constw --no-check \
  "${a[@]}" --json $R/depth32.jsonl > $R/depth32.txt 2>&1
python3 - $R > $R/depth.md <<'PY'
import json,sys
R=sys.argv[1]
for f in ('depth16','depth32'):
    rows=[json.loads(l) for l in open(f'{R}/{f}.jsonl')]
    fl=[r for r in rows if r['backend']=='floor']
    floor=fl[0]['cold_us'] if fl else float('nan')
    print(f'## {f} (floor {floor:.2f} us)\n\n| backend | config | cold us | / floor | min | max |\n|---|---|---:|---:|---:|---:|')
    for r in rows:
        if r.get('cold_us') and r['backend'].startswith('blockfp8'):
            print(f"| {r['backend']} | {r.get('config')} | {r['cold_us']:.2f} | {r['cold_us']/floor:.3f} | {r.get('cold_min_us',0):.2f} | {r.get('cold_max_us',0):.2f} |")
    print()
PY
cat $R/depth.md $R/fence_ab.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
