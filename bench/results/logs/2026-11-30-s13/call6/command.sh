# s13 call 6: the tiled kernel launched with programmatic dependent launch (its prologue overlaps the
# preceding kernel's tail; it waits with griddepcontrol.wait before touching memory), against 542c15b
# (build-dev/old): the GPU tests and racecheck, then the interleaved A/B over tiled-served points.
set -u
R=/tmp/r; mkdir -p $R; T=build-dev/tests/blockfp8_gpu_tests
timeout 300 $T --gtest_filter='TiledTest.*:GemmTest.*:ReliabilityTest.*' > $R/gtest.log 2>&1; echo "gtest rc=$?"; tail -1 $R/gtest.log
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 99 $T --gtest_filter='TiledTest.SplitKWideClusters:TiledTest.EveryClusterShape' > $R/racecheck.log 2>&1; echo "racecheck rc=$?"; tail -1 $R/racecheck.log
OUT=$R/ab bash tools/binary_ab.sh pdl build-dev/bench/blockfp8-bench build-dev/old/blockfp8-bench \
  --shape 2112,7168 --shape 4096,7168 --shape 7168,2048 --shape 24576,1536 --shape 7168,16384 --shape 576,7168 --m 72,128,256,512,1024,4096 --no-floor --no-cublaslt > /dev/null; echo "ab done"
cat $R/ab/pdl_ab.md
tar -C /tmp -czf $OUT/call6.tgz r
