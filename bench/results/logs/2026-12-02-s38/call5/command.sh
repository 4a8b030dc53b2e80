#!/usr/bin/env bash
# s38 call 5. c5 = main's kernels (8eeda2c's SASS) with an experimental rule: 2 x 4 clusters of 256 x 128 tiles in
# place of the unsplit 128-token pick at M = 1025-2048 where N is a multiple of 512 (call 2's forced rows at
# M = 1536 put them at 0.90-0.98x the pick). Against the switch (BLOCKFP8_TILED_2D=0), twice each way.
set -u
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
pack() { tar -C $OUT -czf $OUT/run.tgz run; }
trap 'pack; rm -rf $OUT/run' EXIT
rm -rf c5 && tar -xJf build-carry/s38c5.tar.xz
N=c5
SH="--shape 7168,2048 --shape 7168,2304 --shape 7168,4096 --shape 7168,4608 --shape 7168,8192 --shape 7168,9216 --shape 7168,16384 --shape 7168,18432 --shape 4096,7168 --shape 4608,7168 --shape 3072,7168 --shape 1536,7168 --shape 6144,7168 --shape 9216,7168 --shape 12288,7168"
OUT=$R/ab timeout 250 bash tools/env_ab.sh $N BLOCKFP8_TILED_2D $SH --m 1536,2048 --no-cublaslt > $R/ab.log 2>&1
echo "A/B rc=$? at $SECONDS s" >> $S
cat $S
