#!/usr/bin/env bash
# s25 call 2. Why the early weight prefetch (call 1) cost 1.1-1.25x on the bf16a two-launch path.
# N = wip/weight-l2-early with diagnostic switches; O = main at the session's start. Variants of the
# bf16a path, each run twice, interleaved:
#   off   BLOCKFP8_WEIGHT_L2_EARLY=0
#   bulk  the call-1 form (cp.async.bulk.prefetch.L2 by the producer, whole slices within a third of L2)
#   late  no prefetch; the quantiser triggers the GEMM's launch only once its X loads are back
#   bulkL bulk + late
#   lsuL  prefetch.global.L2 lines from the math threads + late
#   kb4L  bulk, the first 4 k-blocks of each row only, + late
# Then the plain path N against O (the kernels gained the prefetch's branches before the wait).
set -u
rm -rf build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
B=build-var/N/bench/blockfp8-bench
ARGS=""
for s in 2112,7168 576,7168 1536,7168 4096,7168 7168,2048 3072,1536 7168,16384; do ARGS="$ARGS --shape $s"; done
run() {  # name env...
  local name=$1; shift
  env "$@" timeout 60 $B $ARGS --m 2,4,8,16,32,64,128 --no-floor --no-cublaslt --no-constw --no-check \
    --json $R/v_${name}_$rep.jsonl > /dev/null 2>&1 || echo "run $name $rep failed" >> $S
}
for rep in 1 2; do
  run off BLOCKFP8_WEIGHT_L2_EARLY=0
  run bulk BLOCKFP8_WEIGHT_L2_EARLY=1048576
  run late BLOCKFP8_WEIGHT_L2_EARLY=0 BLOCKFP8_QUANT_TRIGGER_LATE=1
  run bulkL BLOCKFP8_QUANT_TRIGGER_LATE=1
  run lsuL BLOCKFP8_WEIGHT_L2_LSU=1 BLOCKFP8_QUANT_TRIGGER_LATE=1
  run kb4L BLOCKFP8_WEIGHT_L2_EARLY=4 BLOCKFP8_QUANT_TRIGGER_LATE=1
done
python3 - $R > $R/variants.md <<'P'
import json, sys, glob, collections
R = sys.argv[1]
names = ['off', 'bulk', 'late', 'bulkL', 'lsuL', 'kb4L']
t = collections.defaultdict(list)
for n in names:
    for f in sorted(glob.glob(f'{R}/v_{n}_*.jsonl')):
        for r in map(json.loads, open(f)):
            if r['backend'] in ('blockfp8_bf16a', 'blockfp8_quant_gemm') and r.get('cold_us'):
                t[(r['N'], r['K'], r['M'], r['backend'], n)].append(r['cold_us'])
avg = lambda x: sum(x) / len(x)
print('bf16a us (mean of 2 runs) and each variant / off; qg = quant_gemm in the off runs')
print('| N x K | M | qg | off | ' + ' | '.join(names[1:]) + ' |')
print('|---|---:|---:|---:|' + '---:|' * (len(names) - 1))
for key in sorted({k[:3] for k in t}):
    off = t.get(key + ('blockfp8_bf16a', 'off'))
    qg = t.get(key + ('blockfp8_quant_gemm', 'off'))
    if not off or not qg: continue
    cells = []
    for n in names[1:]:
        v = t.get(key + ('blockfp8_bf16a', n))
        cells.append(f'{avg(v) / avg(off):.3f}' if v else '-')
    print(f'| {key[0]}x{key[1]} | {key[2]} | {avg(qg):.2f} | {avg(off):.2f} | ' + ' | '.join(cells) + ' |')
P
OUT=$R timeout 150 bash tools/binary_ab.sh P $B build-var/O/blockfp8-bench $ARGS \
  --m 1,2,4,8,16,32,64,128 --no-floor --no-cublaslt > /dev/null 2>&1
echo "ab plain rc=$?" >> $S
cat $S $R/variants.md $R/P_ab.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
