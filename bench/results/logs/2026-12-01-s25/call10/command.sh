#!/usr/bin/env bash
# s25 call 10. N = 9a37d8d (the tiled kernel also at 65-128 tokens on weights of 24+ tiles with K <= 12
# k-blocks, and at 1-4 tokens where K <= 4 k-blocks on weights of more tiles than SMs); P = 100dbde.
# GPU tests on N; N against P interleaved twice, fp8 and bf16a, where the rules move points (4096x512 and
# 3072x1536 at M = 72-128, 32768x512 at M = 1-4) and beside them (16384x512 at M = 1-4, 24576x1536 at
# M = 4, 2112x7168 at M = 96-128).
set -u
rm -rf build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
timeout 100 build-var/N/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure" $R/gpu_tests.log | head -20 >> $S
run() {  # tag m-list shapes...
  local tag=$1 ms=$2; shift 2
  local a=""; for s in "$@"; do a="$a --shape $s"; done
  for rep in 1 2; do
    for side in N P; do
      timeout 60 build-var/$side/bench/blockfp8-bench $a --m $ms --no-floor --no-constw \
        --json $R/${tag}_${side}_$rep.jsonl > /dev/null 2>> $R/stderr.txt || echo "$tag $side $rep failed" >> $S
    done
  done
  python3 tools/ab_table.py N P $R/${tag}_N_1.jsonl $R/${tag}_N_2.jsonl $R/${tag}_P_1.jsonl $R/${tag}_P_2.jsonl > $R/${tag}_fp8.md
  AB_BACKEND=blockfp8_bf16a python3 tools/ab_table.py N P $R/${tag}_N_1.jsonl $R/${tag}_N_2.jsonl $R/${tag}_P_1.jsonl $R/${tag}_P_2.jsonl > $R/${tag}_bf16a.md
}
run mid 72,96,128 4096,512 3072,1536 2112,7168
run few 1,2,4 32768,512 16384,512 24576,1536
cat $S $R/mid_fp8.md $R/few_fp8.md $R/mid_bf16a.md $R/few_bf16a.md
python3 - $R/mid_N_1.jsonl $R/few_N_1.jsonl <<'P'
import json, sys
for f in sys.argv[1:]:
    for r in map(json.loads, open(f)):
        if r['backend'] == 'cublaslt' and r.get('cold_us'):
            print('cublaslt', r['N'], r['K'], r['M'], r['cold_us'])
P
gzip -9 -n $R/gpu_tests.log
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
