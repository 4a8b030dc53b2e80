#!/usr/bin/env bash
# s15 call 6: why the GEMV kernel ran 2-4x the dispatcher (call 5). v1 = b_scale fetched beside each
# chunk's bytes (not on the math's path) + the L2::256B hint + 14 loads a lane; v0 = call 5's. Both
# forced at M = 1 on five shapes, then ncu (warp states, source counters) of v1 on 2112x7168.
set -u
R=$OUT/r; mkdir -p $R
for v in v1:build-dev/bench v0:build-dev/v0; do
  n=${v%%:*}; b=${v#*:}/blockfp8-bench
  timeout 100 $b --shape 2112,7168 --shape 7168,256 --shape 32768,512 --shape 576,7168 --shape 7168,16384 --m 1 --config gemv_t1 --config-rounds 3 --no-cublaslt --no-bf16a --no-constw --json $R/$n.jsonl > $R/$n.log 2>&1; echo "$n rc=$?"
  grep -E 'gemv_t1|blockfp8 ' $R/$n.log | cut -c1-110
done
timeout 150 ncu --section WarpStateStats --section SourceCounters --section SpeedOfLight --section MemoryWorkloadAnalysis --launch-skip 3 --launch-count 1 --kernel-name regex:gemv_stream \
  build-dev/bench/blockfp8-bench --shape 2112,7168 --m 1 --config gemv_t1 --no-floor --no-cublaslt --no-bf16a --no-constw --no-check --replays 2 > $R/ncu.txt 2>&1; echo "ncu rc=$?"
grep -E 'Duration|Throughput|Stall|stall|Warp Cycles|Issued|Eligible|L2 Hit|Mem Busy|Max Bandwidth' $R/ncu.txt | head -40
tar -C $OUT -czf $OUT/call6.tgz r
