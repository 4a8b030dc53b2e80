#!/usr/bin/env bash
# s23 call 3: the pulled sum's tail at 16-64 tokens. Three builds (build-var/*): old = fe8cc31; r4q1 / r2q2 =
# fe8cc31 + 64-token warpgroups with the tokens on wgmma's M side (bitwise fe8cc31's, call 2) + reduce_store
# issuing every load of a pass before the first add (4 ranks x 1 quad / 2 ranks x 2 quads a pass) and
# storing a quad of C at once. Timelines (PDL off) of old and r4q1; the dispatcher's picks, r4q1 and r2q2
# against old, interleaved. (The carry's 64 MiB left room for no libraries: bitwise checks come later.)
set -u
rm -rf build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv > $R/gpu.txt 2>&1
for v in old r4q1; do
  for spec in "7168 16384 64" "2112 7168 32" "2112 7168 64" "4096 7168 32" "2112 7168 16"; do
    set -- $spec
    BLOCKFP8_PDL=0 timeout 60 build-var/$v/decode_timeline $1 $2 $3 > $R/tl_${v}_${1}x${2}_m$3.txt 2>&1
    echo "timeline $v $spec rc=$?" >> $S
  done
done
ARGS=""
for s in 2112,7168 4096,7168 7168,16384 576,7168 7168,2048 24576,1536 3072,1536 16384,512; do ARGS="$ARGS --shape $s"; done
for v in r4q1 r2q2; do
  OUT=$R bash tools/binary_ab.sh $v build-var/$v/blockfp8-bench build-var/old/blockfp8-bench $ARGS \
    --m 16,24,32,48,64 --no-floor --no-cublaslt > /dev/null 2>&1
  echo "ab $v rc=$?" >> $S
done
cat $S
for f in $R/tl_*_m*.txt; do echo "== $f"; sed -n '1p;6,11p' $f; done
cat $R/r4q1_ab.md $R/r2q2_ab.md
for f in $R/*.log $R/*.txt $R/*.jsonl; do [ -f $f ] && [ $(stat -c %s $f) -gt 30000 ] && gzip -9 -n $f; done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
