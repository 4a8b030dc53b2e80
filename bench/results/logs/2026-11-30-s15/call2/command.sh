#!/usr/bin/env bash
# s15 call 2: is the large-M comparison with cuBLASLt biased by run order? Per M the bench times the
# SIMT reference, then cuBLASLt, then blockfp8, back to back, each graph unsettled (the s9 sweep's
# dispatcher rows ran 5-10 % slower than the same configuration forced in shuffled rounds). Eight
# shapes at M = 1024-8192, unsettled and with --settle-ms 100 (each graph replayed 100 ms untimed
# first), alternated twice, with the SM clock and power sampled every 100 ms.
set -u
R=$OUT/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench
SH="--shape 7168,16384 --shape 7168,2048 --shape 4096,7168 --shape 2112,7168 --shape 24576,7168 --shape 4608,7168 --shape 7168,4608 --shape 12288,1536"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 100 > $R/clocks.csv 2>&1 &
SMI=$!
for i in 1 2; do
  for mode in unsettled settled; do
    extra=""; [ $mode = settled ] && extra="--settle-ms 100"
    t0=$SECONDS
    timeout 200 $B $SH --m 1024,2048,4096,8192 --no-floor --no-bf16a --no-constw $extra --json $R/${mode}_$i.jsonl > $R/${mode}_$i.log 2>&1
    echo "$mode $i rc=$? $((SECONDS - t0)) s"
  done
done
kill $SMI
python3 - $R <<'PY'
import json, sys, glob, statistics as st
R = sys.argv[1]
for f in sorted(glob.glob(R + "/*.jsonl")):
    rows = [json.loads(l) for l in open(f)]
    d = {}
    for r in rows:
        if r.get("M") and r.get("cold_us"): d.setdefault((r["N"], r["K"], r["M"]), {})[r["backend"]] = r["cold_us"]
    rat = [v["blockfp8"] / v["cublaslt"] for v in d.values() if "blockfp8" in v and "cublaslt" in v]
    print(f.split("/")[-1], "points", len(rat), "median ours/LT %.3f" % st.median(rat), "slower at", sum(x > 1 for x in rat))
PY
tar -C $OUT -czf $OUT/call2.tgz r
