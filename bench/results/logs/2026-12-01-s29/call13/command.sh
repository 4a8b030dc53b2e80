#!/usr/bin/env bash
# s29 call 13. 2ec8aa6 (1536x7168 at 6-8 tokens on the TMA kernel) against 72cfd29 (build-fin, calls 8-9):
# the GPU tests on 2ec8aa6, then 1536x7168 at M = 1-8 (and 2112x7168 as the control) interleaved twice with
# the check and the bf16-activation backends on.
set -u
tar -xJf build-carry/s29c13.tar.xz
R=$OUT/run; mkdir -p $R
timeout 120 build-fin2/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1; echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED) ' $R/gpu_tests.log | tr '\n' ' ')"
for rep in 1 2; do
  for side in new old; do
    bin=build-fin2/bench/blockfp8-bench; [ $side = old ] && bin=build-fin/bench/blockfp8-bench
    timeout 120 $bin --shape 1536,7168 --shape 2112,7168 --m 1,4,6,7,8 --no-cublaslt --no-floor --no-constw \
      --json $R/${side}_$rep.jsonl > /dev/null 2>$R/${side}_$rep.err || echo "$side $rep failed"
  done
done
python3 - $R <<'PY'
import json,sys,statistics as st
R=sys.argv[1]
def load(side):
    d={}
    for rep in (1,2):
        for l in open(f'{R}/{side}_{rep}.jsonl'):
            r=json.loads(l)
            if r['backend'].startswith('blockfp8') and r.get('cold_us'):
                d.setdefault((r['backend'],r['N'],r['M']),[]).append((r['cold_us'],r.get('config'),r.get('rel_err'),r.get('written')))
    return d
n,o=load('new'),load('old')
print('| backend | N | M | new config | new µs | old config | old µs | new / old | rel_err new | written |\n|---|---:|---:|---|---|---|---|---:|---:|---|')
for k in sorted(n):
    if k in o:
        a=[x[0] for x in n[k]]; b=[x[0] for x in o[k]]
        print(f"| {k[0]} | {k[1]} | {k[2]} | {n[k][0][1]} | {', '.join(f'{x:.2f}' for x in a)} | {o[k][0][1]} | {', '.join(f'{x:.2f}' for x in b)} | {st.mean(a)/st.mean(b):.3f} | {n[k][0][2]} | {n[k][0][3]} |")
PY
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
