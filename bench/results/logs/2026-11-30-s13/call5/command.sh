# s13 call 5: the tiled kernel splits K over clusters of up to 8 and sums the ranks' partials with every
# load of a quad in flight, and the dispatcher takes it at M = 65-128 on long-K weights from 12 tiles
# of 128 rows: the GPU tests and the fuzzer, then the interleaved A/B of the dispatcher's choice against
# 51f9806 (build-dev/old) from M = 65 to 512.
set -u
R=/tmp/r; mkdir -p $R; T=build-dev/tests/blockfp8_gpu_tests
timeout 400 $T > $R/gtest.log 2>&1; echo "gtest rc=$?"; grep -E "resident clusters|PASSED|FAILED" $R/gtest.log | head
timeout 200 build-dev/tests/blockfp8_fuzz --cases 1500 --max-seconds 150 > $R/fuzz.log 2>&1; echo "fuzz rc=$?"; tail -2 $R/fuzz.log
OUT=$R/ab bash tools/binary_ab.sh mid build-dev/bench/blockfp8-bench build-dev/old/blockfp8-bench \
  --shape 2112,7168 --shape 1536,7168 --shape 3072,7168 --shape 4096,7168 --shape 576,7168 --m 65,72,96,128,192,256,384,512 --no-floor --no-cublaslt > /dev/null; echo "ab mid done"
OUT=$R/ab bash tools/binary_ab.sh wide build-dev/bench/blockfp8-bench build-dev/old/blockfp8-bench \
  --shape 4608,7168 --shape 6144,7168 --shape 7168,16384 --shape 7168,8192 --shape 7168,2048 --m 72,128,256,512 --no-floor --no-cublaslt > /dev/null; echo "ab wide done"
cat $R/ab/mid_ab.md $R/ab/wide_ab.md
tar -C /tmp -czf $OUT/call5.tgz r
