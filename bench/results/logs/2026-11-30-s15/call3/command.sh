#!/usr/bin/env bash
# s15 call 3: the tiled widths and clusters at large M, settled (call 2: unsettled timings favour the
# backend that runs first after a light phase; the bench times cuBLASLt first). Eight shapes,
# M = 1024-8192, widths 128-192, single CTAs and pairs along M, two shuffled rounds, each graph
# replayed 100 ms untimed first; cuBLASLt and the dispatcher's pick at every point.
set -u
R=$OUT/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench
t0=$SECONDS
SWEEP_M=1024,2048,4096,8192 SWEEP_WIDTHS="128 144 160 176 192" SWEEP_CLUSTERS="1x1 2x1" SWEEP_ROUNDS=2 SWEEP_SETTLE_MS=100 \
  OUT=$R bash tools/tiled_sweep.sh $B 7168,16384 7168,2048 4096,7168 2112,7168 24576,7168 4608,7168 7168,4608 12288,1536
echo "sweep took $((SECONDS - t0)) s"
python3 tools/tiled_sweep_report.py $R/sweep_*.jsonl | tail -40
tar -C $OUT -czf $OUT/call3.tgz r
