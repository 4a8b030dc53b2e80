#!/usr/bin/env bash
# s15 call 5: the new GEMV kernel (src/kernels/gemv_stream.cu, a warp a weight row on CUDA cores).
# Its GPU tests, memcheck and racecheck on them, then forced against the dispatcher and the floor on
# the 31 DeepSeek shapes at M = 1, 2, 4 (cold L2, one process per M, forced configs in 3 shuffled rounds).
set -u
R=$OUT/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench; T=build-dev/tests/blockfp8_gpu_tests
timeout 120 $T --gtest_filter='*Gemv*:*InvalidForced*:*DispatcherShapes*' > $R/tests.log 2>&1; echo "tests rc=$? $(tail -n 1 $R/tests.log)"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 $T --gtest_filter='*ForcedGemv*' > $R/memcheck.log 2>&1; echo "memcheck rc=$? $(tail -n 1 $R/memcheck.log)"
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 99 $T --gtest_filter='*ForcedGemv*' > $R/racecheck.log 2>&1; echo "racecheck rc=$? $(tail -n 1 $R/racecheck.log)"
for m in 1 2 4; do
  case $m in 1) C="--config gemv_t1 --config gemv_t2";; 2) C="--config gemv_t2 --config gemv_t4";; 4) C="--config gemv_t4";; esac
  timeout 150 $B --m $m $C --config-rounds 3 --no-cublaslt --no-bf16a --no-constw --json $R/m$m.jsonl > $R/m$m.log 2>&1; echo "bench m$m rc=$?"
done
python3 - $R <<'PY'
import json, sys, glob, statistics as st
R = sys.argv[1]
for f in sorted(glob.glob(R + "/m*.jsonl")):
    d = {}
    for l in open(f):
        r = json.loads(l)
        if r.get("cold_us"): d.setdefault((r["N"], r["K"], r["M"]), {})[r["backend"]] = (r["cold_us"], r.get("config"), r.get("rel_err"))
    rat = []
    for k, v in sorted(d.items()):
        g = {b: x[0] for b, x in v.items() if b.startswith("blockfp8:gemv")}
        if not g or "blockfp8" not in v or "floor" not in v: continue
        gb = min(g.values()); disp = v["blockfp8"][0]; fl = v["floor"][0]
        rat.append(gb / disp)
        print(k, "floor %.2f disp %.2f (%s) gemv %.2f  gemv/disp %.3f gemv/floor %.3f disp/floor %.3f" % (fl, disp, v["blockfp8"][1], gb, gb / disp, gb / fl, disp / fl), {b: round(x, 2) for b, x in g.items()})
    if rat: print(f.split("/")[-1], "gemv/dispatcher median %.3f min %.3f max %.3f faster at %d of %d" % (st.median(rat), min(rat), max(rat), sum(x < 1 for x in rat), len(rat)))
PY
tar -C $OUT -czf $OUT/call5.tgz r
