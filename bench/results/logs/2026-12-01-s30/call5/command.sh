#!/usr/bin/env bash
# s30 call 5. blockfp8_gemm_bf16a's two-launch path with the GEMM streaming its first ring of weight
# before the quantiser ends (BLOCKFP8_FLAG_CONST_WEIGHTS set inside the library: its quantiser writes
# neither B nor b_scale). new = wip/bf16a-two-launch-constw (67a858e + that), old = 67a858e. Interleaved
# twice; the blockfp8_bf16a backend compared (blockfp8_quant_gemm, unchanged in both, as a control).
set -u
rm -rf b5 && tar -xJf build-carry/s30c5.tar.xz
R=$OUT/run; mkdir -p $R
ARGS=""
for s in 2112,7168 4096,7168 4608,7168 12288,7168 7168,2048 7168,16384 576,7168 3072,1536 1536,7168; do ARGS="$ARGS --shape $s"; done
for rep in 1 2; do
  for side in new old; do
    timeout 120 b5/$side/blockfp8-bench $ARGS --m 8,16,24,32 --no-cublaslt --no-constw --no-floor --no-check \
      --json $R/bf_${side}_$rep.jsonl > /dev/null 2>&1 || echo "bench $side rep $rep failed"
  done
done
AB_BACKEND=blockfp8_bf16a python3 tools/ab_table.py new old $R/bf_new_1.jsonl $R/bf_new_2.jsonl $R/bf_old_1.jsonl $R/bf_old_2.jsonl | tee $R/bf16a_ab.md
AB_BACKEND=blockfp8_quant_gemm python3 tools/ab_table.py new old $R/bf_new_1.jsonl $R/bf_new_2.jsonl $R/bf_old_1.jsonl $R/bf_old_2.jsonl > $R/control_ab.md
tail -3 $R/control_ab.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
