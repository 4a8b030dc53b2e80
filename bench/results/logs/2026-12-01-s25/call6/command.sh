#!/usr/bin/env bash
# s25 call 6. N = the bf16a two-launch path with row-major workspace scales for the tiled kernel below
# 128 tokens; P = ddd2bb2 (call 5: column-major there). GPU tests on N; N against P interleaved twice,
# bf16a and fp8 (fp8 unchanged: a control), where the tiled kernel now runs below 128 tokens and at
# M = 256 (column-major on both sides).
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
      timeout 60 build-var/$side/bench/blockfp8-bench $a --m $ms --no-floor --no-cublaslt --no-constw \
        --json $R/${tag}_${side}_$rep.jsonl > /dev/null 2>> $R/stderr.txt || echo "$tag $side $rep failed" >> $S
    done
  done
  AB_BACKEND=blockfp8_bf16a python3 tools/ab_table.py N P $R/${tag}_N_1.jsonl $R/${tag}_N_2.jsonl $R/${tag}_P_1.jsonl $R/${tag}_P_2.jsonl > $R/${tag}_bf16a.md
  python3 tools/ab_table.py N P $R/${tag}_N_1.jsonl $R/${tag}_N_2.jsonl $R/${tag}_P_1.jsonl $R/${tag}_P_2.jsonl > $R/${tag}_fp8.md
}
run few 5,8,16,32 24576,1536 32768,512
run mid 33,48,64,256 7168,1024 7168,512 8192,512 4096,512 7168,256 2112,7168
cat $S few_bf16a.md $R/few_bf16a.md $R/mid_bf16a.md $R/few_fp8.md $R/mid_fp8.md 2>/dev/null
gzip -9 -n $R/gpu_tests.log
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
