#!/usr/bin/env bash
# s28 call 8. Stage depth where call 6 did not look: 8-token tiles of the TMA decode kernel on 7168-row weights
# (56-row tiles; 64-row on 7168x2048/2304) at M = 6 and 8, and 16-token tiles on 576x7168 (split 8, 7-k-block
# slices: k2 0.951x in call 6) at M = 12 and 16: the pick and the other depth in three shuffled rounds. build-kb1.
set -u
rm -rf build-kb1 && tar -xJf build-carry/s28c8.tar.xz
R=$OUT/run; mkdir -p $R; B=build-kb1/bench/blockfp8-bench
run() {  # shape, m list, configs...
  local s=$1 m=$2; shift 2
  local args=""; for c in "$@"; do args="$args --config $c"; done
  timeout 40 $B --shape $s --m $m --config-rounds 3 --no-cublaslt --no-bf16a --no-constw --no-floor --no-check $args \
    --json $R/p_${s/,/x}_${m/,/-}.jsonl > /dev/null 2>&1 || echo "failed $s $m"
}
for k in 4096 4608 8192 9216 16384 18432; do
  run 7168,$k 6,8 swapab_r56_t8_s1_w2_k2_p0 swapab_r56_t8_s1_w2_k1_p0
done
for k in 2048 2304; do run 7168,$k 8 swapab_r64_t8_s1_w2_k2_p0 swapab_r64_t8_s1_w2_k1_p0; done
run 576,7168 12,16 swapab_r64_t16_s8_w2_k1_p0 swapab_r64_t16_s8_w2_k2_p0
python3 - $R > $R/summary.md <<'PY'
import json,sys,glob,collections
R=sys.argv[1]
print('| N x K | M | pick | config | cold µs |'); print('|---|---:|---|---|---:|')
for f in sorted(glob.glob(R+'/p_*.jsonl')):
    rows=[json.loads(l) for l in open(f)]
    pick={r['M']:r['config'] for r in rows if r['backend']=='blockfp8'}
    for r in rows:
        if r['backend'].startswith('blockfp8:') and r.get('cold_us'):
            print(f"| {r['N']}x{r['K']} | {r['M']} | {pick.get(r['M'])} | {r['config']} | {r['cold_us']:.2f} |")
PY
cat $R/summary.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
