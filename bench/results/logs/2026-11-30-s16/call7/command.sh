# s16 call 7: call 6's ncu with the right option (--warp-sampling-interval), and the k-block's slope:
# main's kernel (loo0) and the consumer alone (loo5) at one 192-row tile an SM (2112xK, M = 256, 22 CTAs)
# for K = 4096 and 16384 (32 and 128 k-blocks a CTA): time per k-block without the fixed costs.
set -u
R=$OUT/r; mkdir -p $R
X=build-dev-x
for v in loo0 loo5; do
  timeout 150 ncu --kernel-name-base demangled -k 'regex:tiled_gemm_kernel<\(int\)192, \(bool\)0>' --launch-skip 2 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight --warp-sampling-interval 2 \
    -o $R/ncu_$v $X/$v/blockfp8-bench --shape 2112,16384 --m 1024 --config tiled_t128_r192_p4_c1x1 \
    --no-cublaslt --no-floor --no-check --no-bf16a --no-constw --replays 2 > $R/ncu_${v}_run.log 2>&1; echo "ncu $v rc=$?"
  ncu --import $R/ncu_$v.ncu-rep --page details > $R/ncu_${v}_details.txt 2>&1
  ncu --import $R/ncu_$v.ncu-rep --page source --print-source sass --csv > $R/ncu_${v}_sass.csv 2>&1; echo "sass csv $v rc=$? $(wc -l < $R/ncu_${v}_sass.csv)"
  rm -f $R/ncu_$v.ncu-rep
done
COMMON="--no-cublaslt --no-floor --no-check --no-bf16a --no-constw --settle-ms 100 --replays 10 --config tiled_t128_r192_p4_c1x1 --config tiled_t128_r128_p5_c1x1"
for rep in 1 2; do
  for v in loo0 loo5; do
    timeout 100 $X/$v/blockfp8-bench --shape 2112,4096 --shape 2112,16384 --m 256 $COMMON --json $R/slope_${v}_$rep.jsonl > /dev/null 2>&1 || echo "slope $v $rep rc=$?"
  done
done
tar -C $OUT -czf $OUT/call7.tgz r; rm -rf $R
