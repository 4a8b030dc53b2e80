#!/usr/bin/env bash
# The const-weights fault's reproducer, for comparing builds: the sequence that faults
# (24576x7168 then 12288x7168, large M first, then M = 1-8 with --constw; the fault shows at 12288x7168
# M = 8 in the const-weights graph) run by each build in turn, round after round, until SECONDS_BUDGET
# (default 215) runs out. Builds before 91b9581 faulted (a full barrier per alternating warpgroup fixed
# it: 0 of 74 runs since, against 8 of 37 for 329b33a with the early stream compiled in, s21 calls 1-2).
# Usage: OUT=dir [SECONDS_BUDGET=215] [CONTROL=build-dir CONTROL_EVERY=4] bash tools/constw_fault_loop.sh DIR...
#   DIR: a folder holding blockfp8-bench (tools/build_variant.sh makes one). A run counts as faulting
#   when the bench exits non-zero or prints an error; its last lines are kept in $OUT/<name>-run<n>.tail.
#   Rates so far (builds with a ring-full of weight stages early): 15 of 90 (s14 call 9), 11 of 98
#   (s15 call 1), 1 of 9 (s15 call 10); one stage early: 0 of 38 (s15 call 10).
set -u
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
declare -A runs faults
one_run() {  # $1 = build dir, $2 = round
  local name L
  name=$(basename "$1")
  L=$OUT/$name-run$2
  runs[$name]=$((${runs[$name]:-0} + 1))
  timeout 60 "$1/blockfp8-bench" --shape 24576,7168 --shape 12288,7168 --m 1024,4096,8192,1,2,4,8 --constw \
    --no-cublaslt --no-bf16a --settle-ms 0 > "$L.log" 2>&1
  local rc=$?
  if [ $rc -ne 0 ] || grep -qi "error\|fail" "$L.log"; then
    faults[$name]=$((${faults[$name]:-0} + 1))
    echo "$name run $2 rc=$rc at ${SECONDS} s: $(grep -i 'error\|fail' "$L.log" | head -n 1 | cut -c1-100)"
    tail -n 3 "$L.log" > "$L.tail"
  fi
  rm -f "$L.log"
}
end=$((SECONDS + ${SECONDS_BUDGET:-215}))
round=0
while [ $SECONDS -lt $end ]; do
  round=$((round + 1))
  for d in "$@"; do one_run "$d" $round; done
  if [ -n "${CONTROL:-}" ] && [ $((round % ${CONTROL_EVERY:-4})) -eq 0 ]; then one_run "$CONTROL" $round; fi
done
for name in "${!runs[@]}"; do echo "$name: ${faults[$name]:-0} of ${runs[$name]} runs faulted"; done | sort | tee "$OUT/fault_summary.txt"
