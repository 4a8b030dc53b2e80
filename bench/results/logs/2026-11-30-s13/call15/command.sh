# s13 call 15: the tiled kernel prefetches its tensor maps at entry (before the barrier set-up and the
# PDL wait) instead of where the producer starts: TiledTest, then the interleaved A/B against 40b7b43.
set -u
timeout 60 build-dev/tests/blockfp8_gpu_tests --gtest_filter='TiledTest.*' 2>&1 | tail -1
OUT=/tmp/r15 bash tools/binary_ab.sh tmap build-dev/bench/blockfp8-bench build-dev/old/blockfp8-bench \
  --shape 2112,7168 --shape 3072,7168 --shape 7168,2048 --m 128,256,1024 --no-floor --no-cublaslt | tail -12
