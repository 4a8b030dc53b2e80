#!/usr/bin/env bash
# s33 call 4. c3 = 68aea58 (as call 3). #5's audit, continued: (a) the other ten shapes at M = 16 and 64; (b) all
# twenty at M = 4 and 32; one round, settle 20 ms, every forced path. (c) Call 3's one miss, 4096x512 M = 16
# (decode split 2: 0.916x the pick in one round), in three shuffled rounds with the pick forced beside it.
set -u
rm -rf c3 && tar -xJf build-carry/s33c3.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c3
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
export BLOCKFP8_COMMIT=$(cat $N/COMMIT) BLOCKFP8_BENCH_TIMEOUT=60
A="1536,7168 3072,1536 3072,7168 4096,512 4608,7168 6144,1536 6144,7168 7168,256 7168,512 7168,1024"
B="7168,2304 7168,4096 7168,4608 7168,8192 7168,9216 8192,512 9216,7168 12288,1536 16384,512 18432,7168"
sh() { for s in "$@"; do printf -- "--shape %s " $s; done; }
P="--paths --settle-ms 20 --no-cublaslt --no-bf16a --no-constw --no-check"
timeout 150 $N/bench/blockfp8-bench $(sh $B) --m 16,64 $P --json $R/paths_b.jsonl > $R/paths_b.log 2>&1; echo "paths B rc=$? $(wc -l < $R/paths_b.jsonl)" >> $S
timeout 240 $N/bench/blockfp8-bench $(sh $A $B) --m 4,32 $P --json $R/paths_432.jsonl > $R/paths_432.log 2>&1; echo "paths M=4,32 rc=$? $(wc -l < $R/paths_432.jsonl)" >> $S
timeout 60 $N/bench/blockfp8-bench --shape 4096,512 --m 16 --config-rounds 3 --no-cublaslt --no-bf16a --no-constw \
  --config swapab_r64_t16_s1_w2_k1_p6 --config swapab_r64_t16_s2_w0_k1_p0 --config swapab_r64_t16_s1_w0_k4_p0 \
  --config swapab_r64_t16_s2_w0_k2_p0 --json $R/q4096.jsonl > $R/q4096.md 2>&1; echo "4096x512 rc=$?" >> $S
for f in paths_b paths_432 q4096; do python3 tools/forced_vs_dispatch.py $R/$f.jsonl > $R/${f}_forced.txt 2>&1; echo "$f: $(tail -1 $R/${f}_forced.txt)" >> $S; done
cat $S; cut -c1-200 $R/q4096_forced.txt
gzip $R/paths_b.jsonl $R/paths_432.jsonl $R/paths_b.log $R/paths_432.log
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
