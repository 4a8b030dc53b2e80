#!/usr/bin/env bash
# s38 call 4. c3 again (2 x 4 from 129 tokens). Call 3's forced rows at M = 160 disagreed with its A/B on the
# K >= 8192 weights; (a) the rule against its switch at M = 168 and 176; (b) forced 2 x 1 / 2 x 4 at M = 176 and
# 160 on four long-K weights, three rounds, in a fresh process.
set -u
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
pack() { tar -C $OUT -czf $OUT/run.tgz run; }
trap 'pack; rm -rf $OUT/run' EXIT
rm -rf c3 && tar -xJf build-carry/s38c3.tar.xz
N=c3; B=$N/bench/blockfp8-bench
SH="--shape 7168,256 --shape 7168,512 --shape 7168,1024 --shape 7168,2048 --shape 7168,2304 --shape 7168,4096 --shape 7168,4608 --shape 7168,8192 --shape 7168,9216 --shape 7168,16384 --shape 7168,18432"
OUT=$R/ab timeout 150 bash tools/env_ab.sh $N BLOCKFP8_TILED_2D $SH --m 168,176 --no-cublaslt > $R/ab.log 2>&1
echo "A/B rc=$? at $SECONDS s" >> $S; pack
timeout 100 $B --shape 7168,8192 --shape 7168,9216 --shape 7168,16384 --shape 7168,18432 --m 160,176 --config tiled_t128_r128_p5_c2x1 --config tiled_t128_r128_p5_c2x4 --config-rounds 3 --no-bf16a --no-constw --no-cublaslt --json $R/forced.jsonl > /dev/null 2> $R/forced.err
echo "forced rc=$? at $SECONDS s" >> $S
cat $S
