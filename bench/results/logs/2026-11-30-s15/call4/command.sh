#!/usr/bin/env bash
# s15 call 4: call 3 found 192-row tiles 3-8 % faster than the dispatcher's 176 at M >= 2048 on five
# shapes (settled, shuffled rounds). The other eleven shapes where the dispatcher picks 160 or 176 rows
# at M >= 1024, the same way: widths 160, 176, 192, pairs along M (the dispatcher's cluster there).
set -u
R=$OUT/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench
t0=$SECONDS
SWEEP_M=1024,2048,4096,8192 SWEEP_WIDTHS="160 176 192" SWEEP_CLUSTERS="2x1" SWEEP_ROUNDS=2 SWEEP_SETTLE_MS=100 \
  OUT=$R bash tools/tiled_sweep.sh $B 7168,18432 7168,8192 7168,9216 7168,1024 7168,4096 7168,512 7168,2304 7168,256 16384,512 8192,512 4096,512
echo "sweep took $((SECONDS - t0)) s"
python3 tools/tiled_sweep_report.py $R/sweep_*.jsonl | tail -50
tar -C $OUT -czf $OUT/call4.tgz r
