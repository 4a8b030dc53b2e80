#!/usr/bin/env bash
# s15 call 9: call 8 (settled) put ours 17-38 % above the previous unsettled run at some mid-M points
# (18432x7168 M = 64: 40.8 -> 56.3 us) where cuBLASLt moved 0-20 %. Settled against unsettled,
# alternated twice, at M = 64-512 on five such shapes, with the SM clock and power every 100 ms.
set -u
R=$OUT/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench
SH="--shape 18432,7168 --shape 1536,7168 --shape 2112,7168 --shape 12288,7168 --shape 36864,7168"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 100 > $R/clocks.csv 2>&1 &
SMI=$!
for i in 1 2; do
  for s in 0 100; do
    timeout 100 $B $SH --m 64,128,256,512 --no-floor --no-bf16a --no-constw --no-check --settle-ms $s --json $R/settle${s}_$i.jsonl > $R/settle${s}_$i.log 2>&1; echo "settle $s run $i rc=$?"
  done
done
kill $SMI
python3 - $R <<'PY'
import json, sys, glob
R = sys.argv[1]
def load(f):
    d = {}
    for l in open(f):
        r = json.loads(l)
        if r.get("M") and r.get("cold_us"): d[(r["N"], r["K"], r["M"], r["backend"])] = r["cold_us"]
    return d
runs = {n: load(f"{R}/{n}.jsonl") for n in ("settle0_1", "settle100_1", "settle0_2", "settle100_2")}
print("N K M | ours: unsettled1 settled1 unsettled2 settled2 | LT: same")
for k in sorted({k[:3] for k in runs["settle0_1"]}):
    o = [runs[n].get(k + ("blockfp8",)) for n in runs]; l = [runs[n].get(k + ("cublaslt",)) for n in runs]
    print(k, " ".join("%.1f" % x if x else "-" for x in o), "|", " ".join("%.1f" % x if x else "-" for x in l))
PY
tar -C $OUT -czf $OUT/call9.tgz r
