#!/usr/bin/env bash
# s22 call 1 (build-dev/COMMIT plus the uncommitted release-point variants): (1) timelines of warpgroup
# 0's middle stage (marks 14-17) at 64 and 32 tokens on 7168x16384 and at M = 16 on 2112x7168, PDL off;
# (2) where a stage goes back: BLOCKFP8_RELEASE_POINT=1 (right after its own wgmma, before the previous
# stage's promotion) and =2 (halfway through that promotion) against main's (after it), interleaved;
# (3) the variants' results checked once.
set -u
rm -rf build-dev build-rp1 build-rp2 && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
B=build-dev/bench/blockfp8-bench
for spec in "7168 16384 64" "7168 16384 32" "2112 7168 16" "2112 7168 64"; do
  set -- $spec
  BLOCKFP8_PDL=0 timeout 60 build-dev/bench/decode_timeline $1 $2 $3 > $R/tl_${1}x${2}_m$3.txt 2>&1
  echo "timeline $spec rc=$?" >> $S
done
ARGS="--shape 7168,16384 --shape 4608,7168 --shape 2112,7168 --shape 7168,2048 --shape 12288,7168 --m 8,16,32,48,64"
for v in 1 2; do
  OUT=$R bash tools/binary_ab.sh rp$v build-rp$v/bench/blockfp8-bench $B $ARGS --no-floor --no-cublaslt > /dev/null 2>&1
  echo "ab rp$v rc=$?" >> $S
  timeout 200 build-rp$v/bench/blockfp8-bench $ARGS --no-floor --no-cublaslt --no-bf16a --no-constw \
    --json $R/check_rp$v.jsonl > $R/check_rp$v.txt 2>&1
  echo "check rp$v rc=$?" >> $S
done
cat $S $R/*_ab.md
for f in $R/*.txt $R/*.jsonl; do [ $(stat -c %s $f) -gt 30000 ] && gzip -9 -n $f; done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
