# s12 call 10: where the warp-MMA kernel's warps stall, instruction by instruction (ncu's PC sampling,
# source page in SASS), 2112x7168 M = 1: is the 0.3 us final sum waiting on instruction fetch (cold
# code at the end of the kernel) or on something else?
set -u
R=$OUT/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench
ARGS="--shape 2112,7168 --m 1 --no-floor --no-cublaslt --no-bf16a --no-constw --no-check"
timeout 150 ncu --section SourceCounters --section WarpStateStats --launch-skip 3 --launch-count 1 --kernel-name regex:swapab_warpmma \
  --page source --print-source sass --csv $B $ARGS > $R/ncu_source.csv 2> $R/ncu_source.err; echo "source rc=$? lines=$(wc -l < $R/ncu_source.csv)"
timeout 120 ncu --section SourceCounters --section WarpStateStats --launch-skip 3 --launch-count 1 --kernel-name regex:swapab_warpmma \
  --print-details all $B $ARGS > $R/ncu_details.log 2>&1; echo "details rc=$?"
ncu --version > $R/ncu_version.txt 2>&1
tar -C $OUT -czf $OUT/call10.tgz r
