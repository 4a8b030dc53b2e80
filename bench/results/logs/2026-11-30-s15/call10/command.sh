#!/usr/bin/env bash
# s15 call 10: two more candidates for the const-weights fault, each with the early weight stream on:
# "one" (wip/const-prefetch-one: one weight stage before griddepcontrol.wait, not a ring-full) and
# "late" (wip/const-prefetch-late-arrive: before the wait only the weight's bytes are expected, with no
# arrival; the arrival and the tokens' bytes come after it). Alternated on the faulting sequence
# (24576x7168 then 12288x7168, --constw) from a cold start, with nofenceon (5b0e31a, s14's early stream:
# 11 of 98 faulting runs in call 1) every fourth round as the control.
set -u
R=$OUT/run; mkdir -p $R
seq_run() {  # $1 = variant, $2 = run number
  local B=build-dev/$1/blockfp8-bench L=$R/$1-run$2
  timeout 60 $B --shape 24576,7168 --shape 12288,7168 --m 1024,4096,8192,1,2,4,8 --constw --no-cublaslt --no-bf16a --settle-ms 0 --json $L.jsonl > $L.log 2>&1
  local rc=$?
  if [ $rc -ne 0 ] || grep -qi "error\|fail" $L.log; then echo "$1 run $2 rc=$rc at $SECONDS s: $(grep -i 'error\|fail' $L.log | head -1 | cut -c1-100)"; tail -3 $L.log > $L.tail; rm -f $L.log $L.jsonl; return 1; fi
  rm -f $L.log $L.jsonl; return 0
}
end=$((SECONDS + 215)); n=0; bad_late=0; bad_one=0; bad_ctl=0; n_ctl=0
while [ $SECONDS -lt $end ]; do
  n=$((n + 1))
  seq_run late $n || bad_late=$((bad_late + 1))
  seq_run one $n || bad_one=$((bad_one + 1))
  if [ $((n % 4)) -eq 0 ]; then n_ctl=$((n_ctl + 1)); seq_run nofenceon $n || bad_ctl=$((bad_ctl + 1)); fi
done
echo "rounds=$n late_faulted=$bad_late one_faulted=$bad_one control_runs=$n_ctl control_faulted=$bad_ctl" | tee $R/fault_summary.txt
