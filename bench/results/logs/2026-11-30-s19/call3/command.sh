#!/usr/bin/env bash
# s19 call 3: is a wide token tile slow because of its math or because its ring is shallower?
# Forced decode configurations at fixed ring depths (stages p), three shuffled rounds:
# 8-, 32- and 64-token tiles at M = 1 (no token bytes past row 1) and 32/64-token tiles at M = 32,
# on 7168x16384 (split 1: 112 CTAs, one tile each) and 36864x7168 (split 2, many tiles a cluster).
set -u
[ -d build-dev ] || tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R
B=build-dev/bench/blockfp8-bench
for sk in 7168,16384:1 36864,7168:2; do
  shape=${sk%:*} s=${sk#*:}
  c1="" c32=""
  for p in 4 7 10 14 20 28; do c1="$c1 --config swapab_r64_t8_s${s}_w2_k1_p$p"; done
  for p in 4 7 10 14; do c1="$c1 --config swapab_r64_t32_s${s}_w2_k1_p$p"; c32="$c32 --config swapab_r64_t32_s${s}_w2_k1_p$p"; done
  for p in 4 7; do c1="$c1 --config swapab_r64_t64_s${s}_w2_k1_p$p"; c32="$c32 --config swapab_r64_t64_s${s}_w2_k1_p$p"; done
  timeout 250 $B --shape $shape --m 1 --no-cublaslt --no-bf16a $c1 --config-rounds 3 --json $R/stages.jsonl >> $R/stages.txt 2>&1
  timeout 200 $B --shape $shape --m 32 --no-cublaslt --no-bf16a $c32 --config-rounds 3 --json $R/stages.jsonl >> $R/stages.txt 2>&1
done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
