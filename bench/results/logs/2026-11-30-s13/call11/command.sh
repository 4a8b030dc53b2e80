# s13 call 11: call 10's seven runs without the floor kernel did not fault; calls 8-9 faulted 2 times in
# 4 with it. The same sequence with the floor, five times each, interleaved: as built (cur) and with the
# const-weights weight prefetch compiled out (np).
set -u
R=/tmp/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench; NP=build-dev/np/blockfp8-bench
A="--shape 24576,7168 --shape 12288,7168 --m 1024,4096,8192,1,2,4,8 --no-cublaslt"
for i in 1 2 3 4 5; do
  for v in cur np; do
    b=$B; [ $v = np ] && b=$NP
    timeout 60 $b $A --json $R/${v}_$i.jsonl > $R/${v}_$i.log 2>&1; echo "$v $i rc=$? $(grep -c fatal $R/${v}_$i.log)"
  done
done
tar -C /tmp -czf $OUT/call11.tgz r
