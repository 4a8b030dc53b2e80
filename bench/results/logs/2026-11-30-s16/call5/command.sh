# s16 call 5: ncu source counters (SASS-level stall sampling) of the tiled kernel at one tile an SM
# (2112x7168, M = 256, forced 192-row tiles, 22 CTAs x 56 k-blocks): main's kernel (loo0), the consumer
# alone (loo5: producers exit, no mbarriers) and no promotion (loo3).
set -u
R=$OUT/r; mkdir -p $R
X=build-dev-x
for v in 0 5 3; do
  timeout 150 ncu --kernel-name-base demangled -k 'regex:tiled_gemm_kernel<\(int\)192, \(bool\)0>' --launch-skip 2 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight --section ComputeWorkloadAnalysis \
    -o $R/ncu_loo$v $X/loo$v/blockfp8-bench --shape 2112,7168 --m 256 --config tiled_t128_r192_p4_c1x1 \
    --no-cublaslt --no-floor --no-check --no-bf16a --no-constw --replays 2 > $R/ncu_loo${v}_run.log 2>&1; echo "ncu $v rc=$?"
  ncu --import $R/ncu_loo$v.ncu-rep --page details > $R/ncu_loo${v}_details.txt 2>&1
  ncu --import $R/ncu_loo$v.ncu-rep --page source --print-source sass --csv > $R/ncu_loo${v}_sass.csv 2>&1; echo "sass csv $v rc=$? $(wc -l < $R/ncu_loo${v}_sass.csv)"
done
tar -C $OUT -czf $OUT/call5.tgz r; rm -rf $R
