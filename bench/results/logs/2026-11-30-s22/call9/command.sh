#!/usr/bin/env bash
# s22 call 9: premultiplied scales at 64+ tokens (build-dev: 98df181 + the change, uncommitted;
# build-old: 1d816b7). The GPU tests; the outputs of both libraries at 496 points (must be bitwise
# equal: the same products); the dispatcher's choice timed against 1d816b7's, interleaved, at M = 48-128
# on nine weights whose plans there are 64- or 128-token tiles.
set -u
rm -rf build-dev build-old && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
timeout 60 build-dev/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(tail -n 3 $R/gpu_tests.log | tr '\n' ' ')" >> $S
timeout 150 python3 tools/bitwise_vs_lib.py build-old/libblockfp8.so build-dev/libblockfp8.so > $R/bitwise.log 2>&1
echo "bitwise rc=$? $(tail -n 1 $R/bitwise.log)" >> $S
ARGS="--shape 7168,16384 --shape 2112,7168 --shape 4608,7168 --shape 7168,2048 --shape 6144,7168 --shape 3072,7168"
ARGS="$ARGS --shape 576,7168 --shape 4096,512 --shape 3072,1536 --m 48,64,96,128"
OUT=$R bash tools/binary_ab.sh premul build-dev/bench/blockfp8-bench build-old/bench/blockfp8-bench $ARGS \
  --no-floor --no-cublaslt > /dev/null 2>&1
echo "ab premul rc=$?" >> $S
cat $S $R/premul_ab.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
