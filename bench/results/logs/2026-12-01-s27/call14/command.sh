#!/usr/bin/env bash
# s27 call 14. ncu on bench/probes/rw_mix (M = 4096, K = 7168): the quantiser's access pattern as reads,
# writes and copy with no arithmetic, and the quantiser itself (FP32 scales). Speed of light, memory
# workload, occupancy, warp states and launch stats a kernel: is the direct form DRAM-bound, or
# latency/issue-bound, and where does the copy pattern stop short of the floor's read rate?
set -u
rm -rf build-new && tar -xJf build-carry/s27c14.tar.xz
R=$OUT/run; mkdir -p $R
# rw_mix launches 4 warm-up + 40 timed calls of each mode, twice: one launch of each kernel after its warm-up.
for k in 'rw_kernel<0>' 'rw_kernel<1>' 'rw_kernel<2>' 'quantize_1x128_kernel'; do
  timeout 120 ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
    --section WarpStateStats --section SchedulerStats --kernel-name-base demangled -k regex:"$k" --launch-skip 5 \
    --launch-count 1 \
    build-new/bench/rw_mix > "$R/ncu_$(echo $k | tr -cd 'a-z0-9_').txt" 2>&1
  echo "$k rc=$?"
done
grep -E "DRAM Throughput|Memory Throughput|Duration|Achieved Occupancy|Issue Slots Busy|No Eligible|Active Warps Per Scheduler|Eligible Warps|Warp Cycles Per Issued" $R/ncu_*.txt | head -80
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
