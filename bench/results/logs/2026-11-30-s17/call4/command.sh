#!/usr/bin/env bash
# s17 call 4: is M = 4096 power-limited, and do the operand loads cost there through the clock?
# Call 3: without operand loads and scale copies (loo9) M = 4096 took 0.69-0.71x main's time, without
# scale copies alone (loo10) 0.93-0.95x; at one tile an SM the loads cost 3 %. nvidia-smi samples the
# SM clock and the power every 20 ms while each build runs 2112x7168 and 4096x7168 at M = 4096.
set -u
R=$OUT/r; mkdir -p $R
X=build-dev-x
Q=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active
nvidia-smi --query-gpu=$Q --format=csv,noheader > /dev/null 2>&1 || Q=timestamp,clocks.sm,power.draw,temperature.gpu
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv,noheader > $R/env.log
for rep in 1 2; do
  for nb in main:$X/main/blockfp8-bench old_main:$X/loo0/blockfp8-bench no_loads_no_copies:$X/loo9/blockfp8-bench \
            no_copies:$X/loo10/blockfp8-bench cm_tma:$X/cm/on.sh; do
    name=${nb%%:*} bench=${nb#*:}
    nvidia-smi --query-gpu=$Q --format=csv,noheader,nounits -lms 20 > $R/smi_${name}_$rep.csv 2>&1 &
    pid=$!
    timeout 100 $bench --shape 2112,7168 --shape 4096,7168 --m 4096 --no-cublaslt --no-floor --no-check --no-bf16a \
      --no-constw --settle-ms 100 --replays 20 --json $R/big_${name}_$rep.jsonl > $R/big_${name}_$rep.log 2>&1 || echo "$name $rep rc=$?"
    kill $pid; wait $pid 2>/dev/null
  done
done
python3 - "$R" <<'PY'
import csv, glob, json, os, statistics, sys
R = sys.argv[1]
for f in sorted(glob.glob(f"{R}/smi_*.csv")):
    rows = [r for r in csv.reader(open(f)) if len(r) >= 4]
    busy = [r for r in rows if r[2].strip().replace('.', '', 1).isdigit() and float(r[2]) > 250]
    clk = [float(r[1]) for r in busy]; pw = [float(r[2]) for r in busy]
    reasons = sorted({r[4].strip() for r in busy}) if busy and len(busy[0]) > 4 else []
    name = os.path.basename(f)[4:-4]
    times = {}
    j = f"{R}/big_{name}.jsonl"
    if os.path.exists(j):
        for l in open(j):
            d = json.loads(l)
            if d.get("backend") == "blockfp8": times[f"{d['N']}x{d['K']}"] = round(d["cold_us"], 1)
    if clk:
        print(f"{name:26s} busy samples {len(busy):4d}  sm MHz median {statistics.median(clk):6.0f} min {min(clk):5.0f}  W median {statistics.median(pw):5.0f} max {max(pw):5.0f}  {times}  reasons {reasons[:4]}")
    else:
        print(f"{name:26s} no busy samples ({len(rows)} rows) {times}")
PY
tar -C $OUT -czf $OUT/call4.tgz r; rm -rf $R
