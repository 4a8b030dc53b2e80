# s10 call 3: one arrival a warp on the tiled kernel's empty barriers (wip/tiled-warp-arrive) against
# every thread arriving (wip/tiled-splitk at b99ef0c): tests and racecheck, ncu of one tiled kernel
# each, then the interleaved A/B, settled.
set -u
R=$OUT/r; mkdir -p $R
S=build-dev/splitk; V=build-dev/warparrive
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 120 $V/blockfp8_gpu_tests --gtest_filter='TiledTest.*' > $R/var_tests.log 2>&1; echo "tests rc=$? $(tail -n 1 $R/var_tests.log)"
BLOCKFP8_TEST_TIMEOUT=120 timeout 130 compute-sanitizer --tool racecheck --error-exitcode 99 $V/blockfp8_gpu_tests --gtest_filter='ReliabilityTest.SanitizerSmoke' > $R/var_racecheck.log 2>&1; echo "racecheck rc=$? $(tail -n 1 $R/var_racecheck.log)"
for side in old:$S new:$V; do
  n=${side%%:*}; b=${side#*:}
  timeout 120 ncu --kernel-name-base demangled -k regex:tiled_gemm_kernel --launch-skip 3 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section SchedulerStats \
    $b/blockfp8-bench --shape 7168,16384 --m 256 --no-cublaslt --no-floor --no-check --no-bf16a --no-constw --replays 2 > $R/ncu_$n.txt 2>&1
  echo "ncu $n rc=$?"
done
OUT=$R bash tools/binary_ab.sh warparrive $V/blockfp8-bench $S/blockfp8-bench --shape 7168,16384 --shape 2112,7168 --shape 4096,7168 --shape 24576,1536 --shape 7168,2048 --m 256,512,1024,4096 --no-cublaslt --no-floor --settle-ms 100 | tail -n 22
tar -C $OUT -czf $OUT/call3.tgz r; rm -rf $R
