# s13 call 12: call 11's ten runs did not fault either. Twenty more of each, interleaved, no JSON, check on:
# as built (cur) and with the const-weights weight prefetch compiled out (np); counts of faults.
set -u
R=/tmp/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench; NP=build-dev/np/blockfp8-bench
A="--shape 24576,7168 --shape 12288,7168 --m 1024,4096,8192,1,2,4,8 --no-cublaslt"
fc=0; fn=0
for i in $(seq 1 20); do
  timeout 30 $B $A > $R/cur_$i.log 2>&1 || { fc=$((fc+1)); echo "cur $i failed: $(tail -2 $R/cur_$i.log | head -1 | cut -c1-120)"; }
  timeout 30 $NP $A > $R/np_$i.log 2>&1 || { fn=$((fn+1)); echo "np $i failed: $(tail -2 $R/np_$i.log | head -1 | cut -c1-120)"; }
done
echo "faults: cur $fc of 20, np $fn of 20"
tar -C /tmp -czf $OUT/call12.tgz r
