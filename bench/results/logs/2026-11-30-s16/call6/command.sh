# s16 call 6: ncu SASS stall sampling with enough samples (2112x16384, M = 1024: 88 CTAs of one
# 192-row tile, 128 k-blocks each; sampling every 128 cycles) of main's kernel (loo0) and the consumer
# alone (loo5); then the next-stage wait after the promotion (lw, wip/tiled-late-wait) against main.
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
CF="--config tiled_t128_r192_p4_c1x1 --config tiled_t128_r192_p4_c2x1 --config tiled_t128_r128_p5_c1x1 --config tiled_t128_r128_p5_c2x1"
COMMON="--no-cublaslt --no-floor --no-check --no-bf16a --no-constw --settle-ms 100 --replays 10"
for rep in 1 2; do
  for v in lw loo0; do
    timeout 100 $X/$v/blockfp8-bench --shape 2112,7168 --shape 4096,7168 --m 4096 $CF $COMMON --json $R/big_${v}_$rep.jsonl > /dev/null 2>&1 || echo "big $v $rep rc=$?"
    timeout 100 $X/$v/blockfp8-bench --shape 2112,7168 --shape 7168,4096 --m 256 $CF $COMMON --json $R/mid_${v}_$rep.jsonl > /dev/null 2>&1 || echo "mid $v $rep rc=$?"
  done
done
tar -C $OUT -czf $OUT/call6.tgz r; rm -rf $R
