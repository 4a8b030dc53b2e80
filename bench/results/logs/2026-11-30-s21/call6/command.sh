#!/usr/bin/env bash
# s21 call 6: where the 64-token decode stream goes. main (20bfa3e) against wip/diag-switches (050907b)
# built three ways: no wgmma or promotion (nomath: the math warps only wait and release), no token
# loads (notok), neither (both). Timing only (--no-check); two interleaved rounds.
set -u
rm -rf build-dev build-dev-x && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
A="--shape 7168,16384 --shape 12288,7168 --shape 2112,7168 --m 8,32,64 --no-check --no-cublaslt --no-bf16a --no-constw"
for rep in 1 2; do
  for v in base:build-dev/bench nomath:build-dev-x/nomath notok:build-dev-x/notok both:build-dev-x/both; do
    n=${v%%:*}; d=${v#*:}
    timeout 60 $d/blockfp8-bench $A --json $R/${n}_$rep.jsonl > $R/${n}_$rep.log 2>&1
    echo "$n $rep rc=$?" >> $S
  done
done
python3 - $R <<'PY' >> $S
import json, sys, glob
R = sys.argv[1]
t = {}
for f in glob.glob(R + "/*.jsonl"):
    name = f.split("/")[-1].rsplit("_", 1)[0]
    for l in open(f):
        r = json.loads(l)
        if r["backend"] in ("blockfp8", "floor"):
            k = (r["N"], r["K"], r["M"] if r["backend"] == "blockfp8" else 0)
            t.setdefault(k, {}).setdefault(name, []).append(r["cold_us"])
print("N K M: median-of-2 us base / nomath / notok / both (config from base)")
for k in sorted(t):
    v = t[k]
    print(k, " ".join(f"{n}={min(v[n]):.2f}/{max(v[n]):.2f}" for n in ("base", "nomath", "notok", "both") if n in v))
PY
cat $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
