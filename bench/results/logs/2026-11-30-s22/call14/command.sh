#!/usr/bin/env bash
# s22 call 14: each k-block's scales loaded into registers a turn early (ConsumerLoop::fetch, kAhead;
# build-dev: 3446b22+ahead; build-old: 54ad5ec). The GPU tests; both
# libraries' outputs at 496 points (must be bitwise equal: the same products); the dispatcher's
# choice timed against 54ad5ec's, interleaved, at M = 8, 16, 48, 64 on nine weights.
set -u
rm -rf build-dev build-old && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
timeout 60 build-dev/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(tail -n 3 $R/gpu_tests.log | tr '\n' ' ')" >> $S
timeout 150 python3 tools/bitwise_vs_lib.py build-old/libblockfp8.so build-dev/libblockfp8.so > $R/bitwise.log 2>&1
echo "bitwise rc=$? $(tail -n 1 $R/bitwise.log)" >> $S
ARGS="--shape 7168,16384 --shape 2112,7168 --shape 4608,7168 --shape 7168,2048 --shape 12288,7168 --shape 576,7168"
ARGS="$ARGS --shape 8192,512 --shape 3072,1536 --shape 6144,7168 --m 8,16,48,64"
OUT=$R bash tools/binary_ab.sh ahead build-dev/bench/blockfp8-bench build-old/bench/blockfp8-bench $ARGS \
  --no-floor --no-cublaslt > /dev/null 2>&1
echo "ab ahead rc=$?" >> $S
cat $S $R/ahead_ab.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
