#!/usr/bin/env bash
# s33 call 5. c3 = 68aea58 (main's dispatcher). The decode cost's split term (swapab_cost_ns: reduce_ns = 400 + 100 x split)
# at short K, where the audit of calls 3-4 found splits of 2 faster than the picks (4096x512 M = 16 0.917x in three
# rounds; 7168x512, 8192x512 and 3072x1536 at M = 32 0.91-0.94x in one): every distinct pick of six variants of that
# term (variants.txt: 300 + 100 s, 200 + 100 s, 100 s, 400 + 50 s, 50 s, 0) at the 15 points where any differs from
# main's, and split 2 at 3072x1536 M = 32, forced, three shuffled rounds.
set -u
rm -rf c3 && tar -xJf build-carry/s33c3.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
export BLOCKFP8_COMMIT=$(cat c3/COMMIT) BLOCKFP8_BENCH_TIMEOUT=60
b() { local shape=$1 ms=$2; shift 2
  timeout 60 c3/bench/blockfp8-bench --shape $shape --m $ms --config-rounds 3 --no-bf16a --no-constw --no-cublaslt "$@" \
    --json $R/reduce.jsonl >> $R/reduce.md 2>&1; echo "$shape rc=$?" >> $S; }
b 1536,7168 8,16 --config swapab_r64_t16_s4_w2_k1_p12 --config swapab_r64_t16_s8_w2_k1_p6 --config swapab_r64_t8_s4_w2_k1_p12 --config swapab_r64_t8_s8_w2_k1_p6
b 3072,1536 16,32 --config swapab_r64_t16_s2_w2_k1_p9 --config swapab_r64_t16_s4_w2_k1_p4 --config swapab_r64_t32_s2_w0_k1_p0 --config swapab_r64_t32_s4_w2_k1_p4
b 4096,512 16 --config swapab_r64_t16_s1_w2_k1_p6 --config swapab_r64_t16_s2_w2_k1_p4
b 6144,1536 16 --config swapab_r64_t16_s1_w2_k1_p12 --config swapab_r64_t16_s2_w2_k1_p6
b 7168,256 16 --config swapab_r64_t16_s1_w2_k1_p4 --config swapab_r64_t16_s2_w2_k1_p4
b 7168,512 16,24,32 --config swapab_r64_t16_s1_w2_k1_p6 --config swapab_r64_t16_s2_w2_k1_p4 --config swapab_r64_t32_s1_w2_k1_p6 --config swapab_r64_t32_s2_w2_k1_p4
b 7168,1024 16,24,32 --config swapab_r64_t16_s1_w2_k1_p12 --config swapab_r64_t16_s2_w2_k1_p6 --config swapab_r64_t32_s1_w2_k1_p12 --config swapab_r64_t32_s2_w2_k1_p6
b 8192,512 16,24,32 --config swapab_r64_t16_s1_w2_k1_p6 --config swapab_r64_t16_s2_w2_k1_p4 --config swapab_r64_t32_s1_w2_k1_p6 --config swapab_r64_t32_s2_w2_k1_p4
python3 tools/forced_vs_dispatch.py $R/reduce.jsonl > $R/reduce_forced.txt 2>&1
cat $S; cut -c1-300 $R/reduce_forced.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
