#!/usr/bin/env bash
# s29 call 3. wip/ring-weight-budget (9edbcd9: the dispatcher's rings over short streams within 96 KB of
# weight in flight an SM; 63 golden picks moved) against main (3869726), interleaved twice
# (tools/binary_ab.sh) on the whole DeepSeek set at M = 1, 4, 8, 16, 24, 32; then the bf16-activation
# backends (fused and two-launch) on the weights whose picks moved at M <= 32, interleaved twice.
set -u
tar -xJf build-carry/s29c3.tar.xz
R=$OUT/run; mkdir -p $R
NEW=build-ring/blockfp8-bench OLD=build-m29/blockfp8-bench
SECONDS=0
OUT=$R bash tools/binary_ab.sh ring $NEW $OLD --m 1,4,8,16,24,32 --no-cublaslt --no-floor > $R/ring_stdout.txt 2>&1
echo "ab seconds $SECONDS"
for rep in 1 2; do
  for side in new old; do
    bin=$NEW; [ $side = old ] && bin=$OLD
    timeout 200 $bin --shape 2112,7168 --shape 4096,7168 --shape 7168,2304 --shape 4608,7168 --m 1,8,16,24,32 \
      --no-cublaslt --no-floor --no-constw --json $R/bf16a_${side}_$rep.jsonl > /dev/null 2>$R/bf16a_${side}_$rep.err || echo "bf16a $side $rep failed"
  done
done
echo "total seconds $SECONDS"
python3 - $R > $R/bf16a.md <<'PY'
import json,sys,statistics as st
R=sys.argv[1]
def load(side):
    d={}
    for rep in (1,2):
        for l in open(f'{R}/bf16a_{side}_{rep}.jsonl'):
            r=json.loads(l)
            if r['backend'] in ('blockfp8','blockfp8_bf16a','blockfp8_quant_gemm') and r.get('cold_us'):
                d.setdefault((r['backend'],r['N'],r['K'],r['M']),[]).append((r['cold_us'],r.get('config'),r.get('ok',r.get('correct'))))
    return d
n,o=load('new'),load('old')
print('| backend | N x K | M | config new | new µs | old µs | new / old |\n|---|---|---:|---|---|---|---:|')
for k in sorted(n):
    if k in o:
        a=[x[0] for x in n[k]]; b=[x[0] for x in o[k]]
        print(f"| {k[0]} | {k[1]}x{k[2]} | {k[3]} | {n[k][0][1]} | {', '.join(f'{x:.2f}' for x in a)} | {', '.join(f'{x:.2f}' for x in b)} | {st.mean(a)/st.mean(b):.3f} |")
PY
grep -il "mismatch\|fail" $R/*.err | head
cat $R/ring_ab.md $R/bf16a.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
