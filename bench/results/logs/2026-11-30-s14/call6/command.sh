#!/usr/bin/env bash
# s14 call 6: the many-strip warp-MMA rule extended to M = 5-8 where K <= 1536, against 1be066f,
# interleaved twice, on the short-K shapes with more strips of 32 than SMs.
set -u
R=/tmp/r6; rm -rf $R; mkdir -p $R
B=build-dev
OUT=$R bash tools/binary_ab.sh shortk $B/bench/blockfp8-bench $B/old/blockfp8-bench --shape 7168,256 --shape 7168,512 --shape 8192,512 --shape 7168,1024 --shape 6144,1536 --shape 24576,1536 --shape 32768,512 --m 4,5,6,7,8 --no-cublaslt --no-floor > /dev/null
cat $R/shortk_ab.md
tar czf $OUT/r6.tgz -C /tmp r6
