# s9 call 10: does --settle-ms (replay a graph untimed for MS ms before timing it) make a tiled time
# independent of what ran before? Call 9's experiment with settling, then pairs along M against single
# CTAs in both orders with settling.
B=build-dev/bench/blockfp8-bench
X="--shape 7168,16384 --no-cublaslt --no-floor --no-bf16a --no-constw --no-check --config tiled_t128_r112_p6_c2x1"
row() { grep ' 512 ' | grep 'blockfp8' | awk -F'|' '{printf "%s %s |", $4, $5}'; }
for ml in 512 256,512 512,8192 128,512,2048; do
  echo "settle 100 m=$ml: $($B $X --m $ml --settle-ms 100 2>/dev/null | row)"
done
for ml in 512 256,512; do echo "no settle m=$ml: $($B $X --m $ml 2>/dev/null | row)"; done
Y="--shape 7168,16384 --shape 9216,7168 --shape 36864,7168 --m 512,1024,4096 --replays 10 --no-cublaslt --no-floor --no-bf16a --no-constw --no-check --settle-ms 100"
P="--config tiled_t128_r192_p0_c2x1 --config tiled_t128_r192_p0_c1x1 --config tiled_t128_r128_p0_c2x1 --config tiled_t128_r128_p0_c1x1"
S="--config tiled_t128_r128_p0_c1x1 --config tiled_t128_r128_p0_c2x1 --config tiled_t128_r192_p0_c1x1 --config tiled_t128_r192_p0_c2x1"
$B $Y $P --json $OUT/pairfirst.jsonl > /dev/null 2>&1
$B $Y $S --json $OUT/singlefirst.jsonl > /dev/null 2>&1
python3 - $OUT <<'PY'
import json, sys, collections
t = collections.defaultdict(dict)
for o in ("pairfirst", "singlefirst"):
    for l in open(f"{sys.argv[1]}/{o}.jsonl"):
        r = json.loads(l)
        if r["backend"].startswith("blockfp8"):
            t[(r["N"], r["K"], r["M"], o)][r["backend"]] = r["cold_us"]
print("| N x K | M | width | c2x1 / c1x1, pairs first | pairs second | auto row, both orders |")
for (n, k, m, o) in sorted(t):
    if o != "pairfirst": continue
    a, b = t[(n, k, m, "pairfirst")], t[(n, k, m, "singlefirst")]
    for w in (192, 128):
        p, s = f"blockfp8:tiled_t128_r{w}_p0_c2x1", f"blockfp8:tiled_t128_r{w}_p0_c1x1"
        print(f"| {n}x{k} | {m} | {w} | {a[p]/a[s]:.3f} | {b[p]/b[s]:.3f} | {a['blockfp8']:.1f}, {b['blockfp8']:.1f} |")
PY
