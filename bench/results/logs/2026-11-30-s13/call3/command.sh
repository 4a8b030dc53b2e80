# s13 call 3: where a tiled split-K kernel's ~9 us of fixed time goes at few k-blocks a CTA (576x7168
# M = 128: r192 split 8 = 7 k-blocks a CTA at 12.4 us, split 3 = 19 at 18.1 us): ncu of single kernels
# (duration against the graph's per-call time), and the decode kernel at 2112x7168 M = 128 (15.7 us).
set -u
R=/tmp/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench
A="--no-cublaslt --no-floor --no-check --no-bf16a --no-constw --replays 2"
S="--section SpeedOfLight --section LaunchStats --section WarpStateStats --section SchedulerStats --section Occupancy"
i=0
for job in "576,7168 tiled_gemm tiled_t128_r192_p0_c1x1_k8" "576,7168 tiled_gemm tiled_t128_r192_p0_c1x1_k3" "576,7168 tiled_gemm tiled_t128_r64_p0_c1x1_k8" "2112,7168 swapab auto"; do
  set -- $job; i=$((i+1))
  C=""; [ "$3" != auto ] && C="--config $3"
  timeout 150 ncu --clock-control none --kernel-name-base demangled -k regex:$2 --launch-skip 6 --launch-count 2 $S \
    $B --shape $1 --m 128 $A $C > $R/ncu_$i.txt 2>&1; echo "ncu $job rc=$?"
  grep -E "Duration|Elapsed Cycles|SM Frequency|Grid Size|Cluster Size|Block Size" $R/ncu_$i.txt | head -12
done
tar -C /tmp -czf $OUT/call3.tgz r
