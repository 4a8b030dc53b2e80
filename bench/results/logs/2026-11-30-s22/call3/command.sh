#!/usr/bin/env bash
# s22 call 3 (build-dev/COMMIT): is the TMA decode kernel's stream paced per SM (then more CTAs, each
# with fewer rows, would be faster) or by HBM? Equal weight bytes on different numbers of 64-row tiles:
# 7168x16384 (112 CTAs, split 1), 8192x14336 (128 CTAs), 6144x16384 (96 CTAs), 8448x14336 (132 CTAs),
# each with its streaming floor, M = 8, 16, 32, 64; twice.
set -u
rm -rf build-dev && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
B=build-dev/bench/blockfp8-bench
for rep in 1 2; do
  timeout 250 $B --shape 7168,16384 --shape 8192,14336 --shape 6144,16384 --shape 8448,14336 --m 8,16,32,64 \
    --no-cublaslt --no-bf16a --no-constw --json $R/pace_$rep.jsonl > $R/pace_$rep.txt 2>&1
  echo "pace rep $rep rc=$?" >> $S
done
python3 - $R/pace_1.jsonl $R/pace_2.jsonl <<'P' | tee $R/pace.md
import json, sys
for f in sys.argv[1:]:
    rows = [json.loads(l) for l in open(f)]
    fl = {(r["N"], r["K"]): r["cold_us"] for r in rows if r["backend"] == "floor"}
    for r in rows:
        if r["backend"] == "blockfp8":
            b = r["N"] * r["K"] / 1e6
            print(f'{f[-7:-6]} {r["N"]}x{r["K"]} M={r["M"]:3d} {r["config"]:30s} {r["cold_us"]:7.2f} us  floor {fl[(r["N"], r["K"])]:6.2f}  x{r["cold_us"]/fl[(r["N"], r["K"])]:.3f}  {b / r["cold_us"]:.2f} TB/s')
P
cat $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
