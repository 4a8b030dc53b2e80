#!/usr/bin/env bash
# s18 call 11: the tiled dispatcher's straddle cost (branch tiled-straddle-cost) against main
# (51e6901): every point whose pick it changes (M = 96-512 on 16 shapes), interleaved, two rounds each,
# cuBLASLt beside; the GPU tests and a checked bench of the new build.
set -u
R=$OUT/run; mkdir -p $R
timeout 60 build-dev/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1; echo "gpu rc=$? $(tail -n 1 $R/gpu_tests.log)" >> $R/summary.txt
SH="--shape 7168,16384 --shape 7168,18432 --shape 7168,2048 --shape 7168,8192 --shape 7168,9216 --shape 7168,1024 --shape 7168,4096 --shape 7168,4608 --shape 7168,512 --shape 7168,2304 --shape 7168,256 --shape 4096,7168 --shape 4608,7168 --shape 9216,7168 --shape 3072,7168 --shape 1536,7168 --m 96,128,192,256,384,512 --no-floor"
OUT=$R bash tools/binary_ab.sh straddle build-dev/bench/blockfp8-bench build-dev-x/main/blockfp8-bench $SH --no-cublaslt > $R/ab.log 2>&1
timeout 150 build-dev/bench/blockfp8-bench $SH --no-bf16a --json $R/checked.jsonl > $R/checked.log 2>&1; echo "checked rc=$?" >> $R/summary.txt
cat $R/summary.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
