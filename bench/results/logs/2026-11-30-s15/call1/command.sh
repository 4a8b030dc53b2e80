#!/usr/bin/env bash
# s15 call 1: (a) the GPU tests on main with fence.proxy.async after every barrier initialisation
# (ptx::fence_barrier_init; flag still inert), including s14's untested ConstWeightsBackToBackInAGraph
# and the b5afa6c fused rule; the SASS fence count. (b) The const-weights fault: the sequence that
# faulted 15 of 90 times in s14 call 9 (24576x7168 then 12288x7168 with --constw), alternating
# nofenceon (5b0e31a: early weight stream, no proxy fence) and fenceon (this tree + early stream),
# from a cold start, as many rounds as the time allows; then fenceon's GPU tests.
set -u
R=$OUT/run; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/env.log 2>&1
cuobjdump -sass build-dev/libblockfp8.so | grep -oE 'FENCE\.[A-Z.]*' | sort | uniq -c > $R/sass_fence.log
cuobjdump -sass build-dev/fenceon/blockfp8-bench | grep -oE 'FENCE\.[A-Z.]*' | sort | uniq -c > $R/sass_fence_fenceon.log
cuobjdump -sass build-dev/nofenceon/blockfp8-bench | grep -oE 'FENCE\.[A-Z.]*' | sort | uniq -c > $R/sass_fence_nofenceon.log
seq_run() {  # $1 = variant, $2 = run number
  local B=build-dev/$1/blockfp8-bench L=$R/$1-run$2
  timeout 60 $B --shape 24576,7168 --shape 12288,7168 --m 1024,4096,8192,1,2,4,8 --constw --no-cublaslt --no-bf16a --json $L.jsonl > $L.log 2>&1
  local rc=$?
  if [ $rc -ne 0 ] || grep -qi "error\|fail" $L.log; then echo "$1 run $2 rc=$rc at $SECONDS s: $(grep -i 'error\|fail' $L.log | head -2)"; return 1; fi
  rm -f $L.log $L.jsonl; return 0
}
end=$((SECONDS + 250)); n=0; bad_no=0; bad_f=0
while [ $SECONDS -lt $end ]; do
  n=$((n + 1))
  seq_run nofenceon $n || bad_no=$((bad_no + 1))
  seq_run fenceon $n || bad_f=$((bad_f + 1))
done
echo "rounds=$n nofenceon_faulted=$bad_no fenceon_faulted=$bad_f" | tee $R/fault_summary.txt
timeout 200 build-dev/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1; echo "gpu_tests rc=$?: $(tail -n 3 $R/gpu_tests.log | tr '\n' ' ')"
for i in 1 2 3; do timeout 60 build-dev/fenceon/blockfp8_gpu_tests --gtest_filter='*ConstWeights*:*Reliability*' > $R/fenceon_tests$i.log 2>&1; echo "fenceon reliability tests $i rc=$?: $(tail -n 1 $R/fenceon_tests$i.log)"; done
cat $R/sass_fence*.log
