# s13 call 10: the fault of calls 8-9 (TMA decode kernel, const weights, 12288x7168 after 24576x7168).
# cuda-gdb on the reproducing sequence (which kernel, which exception), then the same sequence three
# times each with the const-weights weight prefetch compiled out (build-dev/np) and as built.
set -u
R=/tmp/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench; NP=build-dev/np/blockfp8-bench
A="--shape 24576,7168 --shape 12288,7168 --m 1024,4096,8192,1,2,4,8 --no-cublaslt --no-floor"
timeout 170 cuda-gdb -batch -ex "set cuda api_failures ignore" -ex run -ex "info cuda kernels" -ex "bt" -ex "x/4i \$pc" --args $B $A > $R/gdb.log 2>&1; echo "gdb rc=$?"; grep -E "CUDA_EXCEPTION|Exception|exited|signal|Kernel|kernel" $R/gdb.log | head -12
for i in 1 2 3; do
  for v in np cur; do
    b=$B; [ $v = np ] && b=$NP
    timeout 60 $b $A --json $R/${v}_$i.jsonl > $R/${v}_$i.log 2>&1; echo "$v $i rc=$?"
  done
done
tar -C /tmp -czf $OUT/call10.tgz r
