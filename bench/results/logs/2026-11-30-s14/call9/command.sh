#!/usr/bin/env bash
# s14 call 9: the const-weights fault, chased right after a cold start: wip/const-prefetch-on (the
# early weight stream compiled back in) runs the sequence that faulted in s11 and s13 (24576x7168 then
# 12288x7168, large M first, then M = 1-8 with --constw) as many times as 230 s allow.
set -u
R=$OUT/run; mkdir -p $R
B=build-dev/constw/blockfp8-bench
end=$((SECONDS + 230)); n=0; bad=0
while [ $SECONDS -lt $end ]; do
  n=$((n + 1))
  timeout 60 $B --shape 24576,7168 --shape 12288,7168 --m 1024,4096,8192,1,2,4,8 --constw --no-cublaslt --no-bf16a --json $R/run$n.jsonl > $R/run$n.log 2>&1
  rc=$?
  if [ $rc -ne 0 ] || grep -qi "error\|fail" $R/run$n.log; then bad=$((bad + 1)); echo "run $n rc=$rc at $SECONDS s: $(grep -i 'error\|fail' $R/run$n.log | head -3)"; else rm -f $R/run$n.log $R/run$n.jsonl; fi
done
echo "runs=$n faulted=$bad"
