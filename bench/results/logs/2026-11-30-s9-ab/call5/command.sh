# s9 call 5: pairs along M (c2x1) against single CTAs (c1x1) at one width, with the order of the two
# inside a process swapped between processes (the sweep always ran c1x1 first), interleaved.
R=$OUT/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench
X="--shape 7168,16384 --shape 9216,7168 --shape 2112,7168 --shape 36864,7168 --shape 24576,1536 --m 512,1024,4096 --replays 10 --no-floor --no-bf16a --no-constw --no-check --no-cublaslt"
A="--config tiled_t128_r192_p0_c2x1 --config tiled_t128_r192_p0_c1x1 --config tiled_t128_r128_p0_c2x1 --config tiled_t128_r128_p0_c1x1"
Bc="--config tiled_t128_r128_p0_c1x1 --config tiled_t128_r128_p0_c2x1 --config tiled_t128_r192_p0_c1x1 --config tiled_t128_r192_p0_c2x1"
for rep in 1 2; do
  timeout 250 $B $X $A --json $R/order_pairfirst_$rep.jsonl > /dev/null 2>&1
  timeout 250 $B $X $Bc --json $R/order_singlefirst_$rep.jsonl > /dev/null 2>&1
done
python3 - $R <<'PY'
import json, glob, sys, collections
R = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(R + "/order_*.jsonl")):
    order = "pairfirst" if "pairfirst" in f else "singlefirst"
    for l in open(f):
        r = json.loads(l)
        if r["backend"].startswith("blockfp8:"):
            t[(r["N"], r["K"], r["M"], r["backend"][9:], order)].append(r["cold_us"])
print("| N x K | M | width | c2x1 / c1x1, pairs run first | pairs run second |")
print("|---|---:|---:|---:|---:|")
keys = sorted({k[:3] for k in t})
for n, k, m in keys:
    for w in (192, 128):
        def med(cl, o):
            v = t[(n, k, m, f"tiled_t128_r{w}_p0_c{cl}", o)]
            return sum(v) / len(v) if v else float("nan")
        print(f"| {n}x{k} | {m} | {w} | {med('2x1','pairfirst')/med('1x1','pairfirst'):.3f} | {med('2x1','singlefirst')/med('1x1','singlefirst'):.3f} |")
PY
tar -C $OUT -czf $OUT/all.tgz r
