#!/usr/bin/env bash
# s24 call 7 (build-dev = 65c409b). Does the TMA decode kernel at 128 tokens (or two 64-token tiles) now
# beat the tiled kernel at M = 96-256? The thirteenth session measured it slower (2112x7168 M = 96-128:
# 15.7 against 13.0-13.2 us), before the twenty-third session's 64-token changes. Forced decode
# configurations in three shuffled rounds each, beside the dispatcher's (tiled) pick, in one run.
set -u
rm -rf build-dev && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R
ARGS=""
for s in 2112,7168 4096,7168 1536,7168 3072,7168 4608,7168 7168,2048 6144,7168 7168,16384; do ARGS="$ARGS --shape $s"; done
CFG=""
for c in swapab_r64_t128_s2_w2_k1_p0 swapab_r64_t128_s3_w2_k1_p0 swapab_r64_t128_s4_w2_k1_p0 swapab_r64_t64_s2_w2_k1_p0; do CFG="$CFG --config $c"; done
timeout 400 build-dev/bench/blockfp8-bench $ARGS --m 96,128,192,256 $CFG --config-rounds 3 --no-floor --no-cublaslt \
  --no-bf16a --no-constw --no-check --json $R/forced.jsonl > $R/forced.md 2> $R/forced.err
echo "rc=$?" >> $R/forced.err
python3 - $R/forced.jsonl <<'PY' | tee $R/forced_table.md
import json, sys, collections
rows = [json.loads(l) for l in open(sys.argv[1])]
pts = collections.defaultdict(dict)
for r in rows:
    if r["backend"].startswith("blockfp8") and r.get("cold_us"):
        name = "pick" if r["backend"] == "blockfp8" else r["backend"].split(":", 1)[1]
        pts[(r["N"], r["K"], r["M"])][name] = (r["cold_us"], r["config"])
print("| N x K | M | pick | pick us | best forced decode | us | best / pick |\n|---|---:|---|---:|---|---:|---:|")
for (n, k, m), d in sorted(pts.items()):
    pick = d.get("pick")
    forced = [(v[0], name) for name, v in d.items() if name != "pick"]
    if not pick or not forced:
        continue
    best = min(forced)
    print(f"| {n}x{k} | {m} | `{pick[1]}` | {pick[0]:.2f} | `{best[1]}` | {best[0]:.2f} | {best[0] / pick[0]:.3f} |")
PY
tail -3 $R/forced.err
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
