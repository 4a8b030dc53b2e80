# s13 call 4: stall reasons and hot instructions of the tiled split kernel at few k-blocks a CTA
# (576x7168 M = 128, r192 split 8) and of the decode kernel at 2112x7168 M = 128 (ncu source counters).
set -u
R=/tmp/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench
A="--no-cublaslt --no-floor --no-check --no-bf16a --no-constw --replays 2"
S="--section WarpStateStats --section SourceCounters --print-details all"
timeout 200 ncu --clock-control none --kernel-name-base demangled -k regex:tiled_gemm --launch-skip 6 --launch-count 1 $S \
  $B --shape 576,7168 --m 128 $A --config tiled_t128_r192_p0_c1x1_k8 > $R/ncu_tiled.txt 2>&1; echo "ncu tiled rc=$?"
timeout 200 ncu --clock-control none --kernel-name-base demangled -k regex:swapab --launch-skip 6 --launch-count 1 $S \
  $B --shape 2112,7168 --m 128 $A > $R/ncu_swapab.txt 2>&1; echo "ncu swapab rc=$?"
tar -C /tmp -czf $OUT/call4.tgz r
