#!/usr/bin/env bash
# s23 call 4: the pulled sum's tail, second try. Builds (build-var/*): old = fe8cc31; A = fe8cc31 + 64-token
# warpgroups with the tokens on wgmma's M side (call 2) + reduce_store at 64/128 tokens reading the own
# rank's partial from its own shared memory (not through DSMEM), four ranks' loads in flight, a quad of C
# a store; 8-32 tokens unchanged (their machine code is fe8cc31's). B = A + the 8-32-token tiles read
# their own partial locally and store quads too (ranks one at a time at 16-32 tokens, four at 8).
# Timelines (PDL off); B's outputs bitwise against old; the dispatcher's picks against old, interleaved.
set -u
rm -rf build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv > $R/gpu.txt 2>&1
for v in old A B; do
  for spec in "7168 16384 64" "2112 7168 32" "2112 7168 64" "4096 7168 32"; do
    set -- $spec
    BLOCKFP8_PDL=0 timeout 60 build-var/$v/decode_timeline $1 $2 $3 > $R/tl_${v}_${1}x${2}_m$3.txt 2>&1
    echo "timeline $v $spec rc=$?" >> $S
  done
done
timeout 200 python3 tools/bitwise_vs_lib.py build-var/old/libblockfp8.so build-var/B/libblockfp8.so > $R/bitwise_B.log 2>&1
echo "bitwise old vs B rc=$? $(tail -1 $R/bitwise_B.log)" >> $S
ARGS=""
for s in 2112,7168 4096,7168 7168,16384 576,7168 7168,2048 24576,1536 3072,1536 16384,512 12288,7168 1536,7168; do
  ARGS="$ARGS --shape $s"; done
OUT=$R bash tools/binary_ab.sh B build-var/B/blockfp8-bench build-var/old/blockfp8-bench $ARGS \
  --m 8,16,24,32,64 --no-floor --no-cublaslt > /dev/null 2>&1
echo "ab B rc=$?" >> $S
OUT=$R bash tools/binary_ab.sh A build-var/A/blockfp8-bench build-var/old/blockfp8-bench $ARGS \
  --m 40,64,96 --no-floor --no-cublaslt > /dev/null 2>&1
echo "ab A rc=$?" >> $S
cat $S
for f in $R/tl_*_m*.txt; do echo "== $f"; sed -n '1p;7,10p' $f; done
cat $R/B_ab.md $R/A_ab.md
for f in $R/*.log $R/*.txt $R/*.jsonl; do [ -f $f ] && [ $(stat -c %s $f) -gt 30000 ] && gzip -9 -n $f; done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
