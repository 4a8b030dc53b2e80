# s16 call 3: the tiled k-block bisected at one tile an SM (2112x7168, M = 256, forced 192- and 128-row
# tiles, 56 k-blocks a CTA). wip/tiled-loo builds: 0 main's kernel, 2 no operand loads, 4 skeleton,
# 5 the consumer alone (producers exit, no mbarriers), 6 = 5 without scale reads, 7 = 5 without the
# issue turns, 8 = 5 with the promotion's split fixed. Then ncu source counters (SASS) of 0 and 5.
set -u
R=$OUT/r; mkdir -p $R
X=build-dev-x
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
CF="--config tiled_t128_r192_p4_c1x1 --config tiled_t128_r128_p5_c1x1"
COMMON="--shape 2112,7168 --m 256 --no-cublaslt --no-floor --no-check --no-bf16a --no-constw --settle-ms 100 --replays 10"
for rep in 1 2; do
  for v in 0 2 4 5 6 7 8; do
    timeout 60 $X/loo$v/blockfp8-bench $COMMON $CF --json $R/loo${v}_$rep.jsonl > /dev/null 2>&1 || echo "loo$v rep $rep rc=$?"
  done
done
for v in 0 5; do
  timeout 150 ncu --kernel-name-base demangled -k 'regex:tiled_gemm_kernel<192' --launch-skip 3 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight --section ComputeWorkloadAnalysis \
    -o $R/ncu_loo$v $X/loo$v/blockfp8-bench --shape 2112,7168 --m 256 --config tiled_t128_r192_p4_c1x1 \
    --no-cublaslt --no-floor --no-check --no-bf16a --no-constw --replays 2 > $R/ncu_loo${v}_run.log 2>&1; echo "ncu $v rc=$?"
  ncu --import $R/ncu_loo$v.ncu-rep --page details > $R/ncu_loo${v}_details.txt 2>&1
  ncu --import $R/ncu_loo$v.ncu-rep --page source --print-source sass --csv > $R/ncu_loo${v}_sass.csv 2>&1; echo "sass csv $v rc=$? $(wc -l < $R/ncu_loo${v}_sass.csv)"
done
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
tar -C $OUT -czf $OUT/call3.tgz r; rm -rf $R
