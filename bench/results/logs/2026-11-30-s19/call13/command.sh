#!/usr/bin/env bash
# s19 call 13 (wip/scale-prologue): call 12 found the TMA decode kernel's scale prologue growing with
# the token tile on long K slices (7168x16384 split 1: scales loaded 2.7 us after entry at 8 tokens,
# 5.9 at 32, 7.8 at 64), each round of 8 loads a thread costing a DRAM round trip. load_scales with 16
# (58d7bd0) and 32 (b1ec814) loads a thread in flight at 32+ tokens, each against the tail-box build
# (973dec4, SASS as main's 9c5bba8), the dispatcher's choice, interleaved twice.
set -u
rm -rf build-dev-x && tar -xJf build-carry/x.tar.xz
R=$OUT/run; mkdir -p $R
SHAPES=""
for s in 7168,16384 7168,18432 7168,9216 12288,7168 24576,7168 4096,7168 2112,7168; do SHAPES="$SHAPES --shape $s"; done
for v in b16 b32; do
  OUT=$R timeout 170 bash tools/binary_ab.sh $v build-dev-x/$v/blockfp8-bench build-dev-x/tail/blockfp8-bench \
    $SHAPES --m 24,32,48,64 --no-cublaslt > $R/ab_$v.log 2>&1
done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
