#!/usr/bin/env bash
# s27 call 4. Where the tiled kernel loses to cuBLASLt at M = 256 (12 of the 32 losses at M <= 256 are
# N = 7168 weights at M = 256, tiled_t128_r128_p5_c2x1: 112 tiles on 132 SMs). Forced widths 112 (128
# tiles: one round, straddling b_scale blocks) and 96/128, and 2x2 clusters (build-2x2 = wip/tiled-2x2-s27,
# cc85f14; its 1-D cluster code measured 0.99-1.03x main in call 1), three shuffled rounds, with
# cuBLASLt, at M = 192, 256, 512.
set -u
rm -rf build-2x2 && tar -xJf build-carry/s27c4.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv >> $S
timeout 540 build-2x2/bench/blockfp8-bench --shape 7168,256 --shape 7168,1024 --shape 7168,2048 --shape 7168,2304 \
  --shape 7168,4608 --shape 7168,8192 --shape 7168,16384 --shape 6144,7168 --shape 4608,7168 --shape 6144,1536 \
  --shape 8192,512 --m 192,256,512 \
  --config tiled_t128_r112_p0_c2x1 --config tiled_t128_r112_p0_c2x2 --config tiled_t128_r112_p0_c1x2 \
  --config tiled_t128_r128_p0_c2x1 --config tiled_t128_r128_p0_c2x2 --config tiled_t128_r96_p0_c2x2 \
  --config-rounds 3 --no-floor --no-bf16a --no-constw --json $R/forced.jsonl > $R/forced.log 2>&1
echo "forced rc=$?" >> $S
python3 - $R >> $S <<'PY'
import json,sys,collections,statistics
R=sys.argv[1]; d=collections.defaultdict(list)
for l in open(R+'/forced.jsonl'):
    r=json.loads(l)
    if not r.get('cold_us') or r['backend'] in ('floor','empty'): continue
    c=('PICK:'+r['config']) if r['backend']=='blockfp8' else ('CUBLASLT' if r['backend']=='cublaslt' else r['backend'].split(':',1)[1])
    d[(r['N'],r['K'],r['M'],c)].append(r['cold_us'])
for p in sorted(set(k[:3] for k in d)):
    items=sorted((statistics.median(v),c) for (n,k,m,c),v in d.items() if (n,k,m)==p)
    cb=[t for t,c in items if c=='CUBLASLT']; cb=cb[0] if cb else float('nan')
    print(p, ' | '.join(f"{c.replace('tiled_t128_','')}:{t:.2f}({t/cb:.3f})" for t,c in items))
PY
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
