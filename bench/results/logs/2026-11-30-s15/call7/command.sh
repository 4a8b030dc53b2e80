#!/usr/bin/env bash
# s15 call 7: the GEMV kernel with its tokens laid out for conflict-free reads (call 6: 4-way bank
# conflicts stalled it). Its tests, then forced (t1 at M = 1, t2 at M = 2) against the dispatcher on
# the 31 DeepSeek shapes (cold L2, forced configs in 2 shuffled rounds).
set -u
R=$OUT/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench
timeout 100 build-dev/tests/blockfp8_gpu_tests --gtest_filter='*Gemv*:*InvalidForced*' > $R/tests.log 2>&1; echo "tests rc=$? $(tail -n 1 $R/tests.log)"
timeout 60 $B --m 1 --config gemv_t1 --config-rounds 2 --no-cublaslt --no-bf16a --no-constw --json $R/m1.jsonl > $R/m1.log 2>&1; echo "m1 rc=$?"
timeout 60 $B --m 2 --config gemv_t2 --config-rounds 2 --no-cublaslt --no-bf16a --no-constw --no-check --json $R/m2.jsonl > $R/m2.log 2>&1; echo "m2 rc=$?"
python3 - $R <<'PY'
import json, sys, glob, statistics as st
for f in sorted(glob.glob(sys.argv[1] + "/m*.jsonl")):
    d = {}
    for l in open(f):
        r = json.loads(l)
        if r.get("cold_us"): d.setdefault((r["N"], r["K"], r["M"]), {})[r["backend"]] = r["cold_us"]
    rat = [(min(x for b, x in v.items() if "gemv" in b) / v["blockfp8"], k, v["floor"]) for k, v in d.items() if "blockfp8" in v and any("gemv" in b for b in v)]
    print(f.split("/")[-1], "gemv/dispatcher median %.3f min %.3f max %.3f, faster at %d of %d" % (st.median(r[0] for r in rat), min(r[0] for r in rat), max(r[0] for r in rat), sum(r[0] < 1 for r in rat), len(rat)))
    for r in sorted(rat)[:8]: print("  %.3f" % r[0], r[1], "floor %.2f" % r[2])
PY
tar -C $OUT -czf $OUT/call7.tgz r
