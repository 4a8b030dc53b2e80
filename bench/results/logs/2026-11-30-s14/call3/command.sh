#!/usr/bin/env bash
# s14 call 3: the warp-MMA kernel forced on every DeepSeek shape at M = 1-32 (one CTA a strip, also
# where strips outnumber the SMs), and split over clusters on the few-strip shapes, against the
# dispatcher's choice in the same process. Call 2 found it 0.84-0.92x the dispatcher at M = 1 on
# 576x7168 (split 3), 7168x1024/2048, 24576x1536 and 32768x512 (32-row strips, several a SM).
set -u
R=/tmp/r3; rm -rf $R; mkdir -p $R
B=build-dev/bench/blockfp8-bench
A="--no-cublaslt --no-bf16a --no-constw --no-check --no-floor"
timeout 200 $B $A --m 1,4,8 --config warpmma_r32_t8_s1_w2_k2 --config warpmma_r16_t8_s1_w2_k4 --config warpmma_r16_t8_s1_w2_k2 --json $R/m8.jsonl > $R/m8.log 2>&1; echo "m8 rc=$?"
timeout 120 $B $A --m 16 --config warpmma_r32_t16_s1_w2_k4 --config warpmma_r16_t16_s1_w2_k4 --json $R/m16.jsonl > $R/m16.log 2>&1; echo "m16 rc=$?"
timeout 120 $B $A --m 32 --config warpmma_r32_t32_s1_w2_k2 --config warpmma_r16_t32_s1_w2_k2 --json $R/m32.jsonl > $R/m32.log 2>&1; echo "m32 rc=$?"
timeout 120 $B $A --shape 576,7168 --shape 1536,7168 --shape 2112,7168 --shape 3072,7168 --m 1,4,8 --config warpmma_r16_t8_s2_w2_k4 --config warpmma_r16_t8_s3_w2_k4 --config warpmma_r16_t8_s4_w2_k4 --config warpmma_r32_t8_s2_w2_k2 --config warpmma_r32_t8_s3_w2_k2 --config warpmma_r32_t8_s4_w2_k2 --json $R/split.jsonl > $R/split.log 2>&1; echo "split rc=$?"
tar czf $OUT/r3.tgz -C /tmp r3
