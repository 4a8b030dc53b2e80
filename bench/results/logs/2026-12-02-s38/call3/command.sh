#!/usr/bin/env bash
# s38 call 3. c3 = 8eeda2c with kTiled2dMinTokens = 129: the dispatcher's 2 x 4 clusters over 128 x 128 tiles in
# place of the 2 x 1 pairs from 129 tokens instead of 193 (host code only; every kernel's SASS is 8eeda2c's).
# (a) Against its switch at M = 136, 160, 192 on the eleven N = 7168 weights (twice each way, interleaved).
# (b) Forced 2 x 1 / 2 x 2 / 2 x 4 at M = 160 on the same weights, three rounds.
set -u
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
pack() { tar -C $OUT -czf $OUT/run.tgz run; }
trap 'pack; rm -rf $OUT/run' EXIT
rm -rf c3 && tar -xJf build-carry/s38c3.tar.xz
N=c3; B=$N/bench/blockfp8-bench
SH="--shape 7168,256 --shape 7168,512 --shape 7168,1024 --shape 7168,2048 --shape 7168,2304 --shape 7168,4096 --shape 7168,4608 --shape 7168,8192 --shape 7168,9216 --shape 7168,16384 --shape 7168,18432"
OUT=$R/ab timeout 200 bash tools/env_ab.sh $N BLOCKFP8_TILED_2D $SH --m 136,160,192 --no-cublaslt > $R/ab.log 2>&1
echo "A/B rc=$? at $SECONDS s" >> $S; pack
left=$((330 - SECONDS)); [ $left -gt 120 ] && left=120
timeout $left $B $SH --m 160 --config tiled_t128_r128_p5_c2x1 --config tiled_t128_r128_p5_c2x2 --config tiled_t128_r128_p5_c2x4 --config-rounds 3 --no-bf16a --no-constw --json $R/forced.jsonl > /dev/null 2> $R/forced.err
echo "forced rc=$? at $SECONDS s" >> $S
cat $S
