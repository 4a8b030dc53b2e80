#!/usr/bin/env bash
# Session 8, call 6: the producer's interior loop (no edges in the grid) against the build before edges
# were handled, and the tiled tests.
R=$OUT/r; mkdir -p $R; V=build-dev; B=$V/bench/blockfp8-bench; T=$V/tests/blockfp8_gpu_tests
timeout 100 $T --gtest_filter='Tiled*:Reliability*' > $R/tests_tiled.log 2>&1; echo "tiled rc=$?" >> $R/summary.txt
S="--shape 7168,16384 --shape 9216,7168 --shape 24576,1536 --shape 32768,512 --no-cublaslt --no-floor"
OUT=$R bash tools/binary_ab.sh interior $B $V/prev/blockfp8-bench $S --m 65,128,384,512 >/dev/null 2>&1
cat $R/summary.txt; grep -h -E "PASSED|FAILED" $R/*.log; cat $R/*_ab.md
tar -C $OUT -czf $OUT/all.tgz r; rm -rf $R
