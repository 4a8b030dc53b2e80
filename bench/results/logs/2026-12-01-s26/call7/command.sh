#!/usr/bin/env bash
# s26 call 7 (build-dev = 2fd704c). An anomaly in every run since 41cfae4: 7168x4608 at M = 256 takes 22.6-24.1 us
# where 7168x4096 takes 18.1-19.8 (+4.5 us for 4 more k-blocks, at 0.42 us a k-block elsewhere), and 7168x2304 at
# M = 512 23-24.5 against 7168x2048's 18.4-21.6; cuBLASLt has no such step. Forced tiled configurations in three
# shuffled rounds on K = 4096, 4352, 4608, 4864 (32-38 k-blocks) at M = 256 and K = 2048, 2304 at M = 512.
set -u
rm -rf build-dev && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R
B=build-dev/bench/blockfp8-bench
CF="--config tiled_t128_r128_p0_c2x1 --config tiled_t128_r128_p0_c1x1 --config tiled_t128_r128_p0_c1x2 --config tiled_t128_r192_p0_c2x1 --config tiled_t128_r112_p0_c2x1 --config tiled_t128_r128_p3_c2x1"
timeout 200 $B --shape 7168,4096 --shape 7168,4352 --shape 7168,4608 --shape 7168,4864 --m 256 $CF --config-rounds 3 \
  --no-floor --no-bf16a --no-constw --no-check --json $R/k256.jsonl > /dev/null 2>> $R/stderr.txt
timeout 200 $B --shape 7168,2048 --shape 7168,2304 --shape 7168,2560 --m 512 $CF --config-rounds 3 \
  --no-floor --no-bf16a --no-constw --no-check --json $R/k512.jsonl > /dev/null 2>> $R/stderr.txt
python3 - $R/k256.jsonl $R/k512.jsonl > $R/table.md <<'P'
import json, sys
print('| N x K | M | config | us (median of 3) | cuBLASLt us |')
print('|---|---:|---|---:|---:|')
for f in sys.argv[1:]:
    for r in map(json.loads, open(f)):
        if r.get('cold_us') and r['backend'].startswith('blockfp8'):
            print(f"| {r['N']}x{r['K']} | {r['M']} | {r['config']}{'' if ':' in r['backend'] else ' (pick)'} | {r['cold_us']:.2f} | {r.get('cublaslt_us') or 0:.2f} |")
P
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
