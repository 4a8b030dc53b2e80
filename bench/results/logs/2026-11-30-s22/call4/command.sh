#!/usr/bin/env bash
# s22 call 4: tile heights 40/48/56 (tiles across b_scale blocks, kStraddle instances). build-dev is
# 8590780 plus the change (build-dev/COMMIT), build-old/bench main's bench (same SASS as 8590780).
# (1) the GPU tests (new: GemmTest.ForcedSwapabStraddlingTiles, ReliabilityTest.StraddlingTilesAreBitwise-
# TheAlignedOnes, straddling cases in SanitizerSmoke and InvalidForcedConfigs); compute-sanitizer memcheck,
# synccheck and racecheck over SanitizerSmoke; (2) the dispatcher's new picks against main's, interleaved,
# on the shapes whose plans changed (M = 8, 16, 32); (3) forced 64/56/48-row tiles, split 1, on the
# N = 7168 weights at M = 8-64 (the cost model keeps 64 rows there), two shuffled rounds.
set -u
rm -rf build-dev build-old && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
T=build-dev/tests/blockfp8_gpu_tests
timeout 120 $T > $R/gpu_tests.log 2>&1; echo "gpu_tests rc=$? $(tail -n 3 $R/gpu_tests.log | tr '\n' ' ')" >> $S
for tool in memcheck synccheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 $T --gtest_filter='ReliabilityTest.SanitizerSmoke' \
    > $R/sanitizer_$tool.log 2>&1
  echo "sanitizer $tool rc=$? $(grep -m1 'ERROR SUMMARY' $R/sanitizer_$tool.log)" >> $S
done
NEWB=build-dev/bench/blockfp8-bench OLDB=build-old/bench/blockfp8-bench
ARGS=""
for s in 24576,1536 36864,7168 24576,7168 12288,7168 4608,7168 12288,1536 18432,7168 6144,7168 6144,1536 9216,7168 \
         3072,7168 3072,1536 7168,2304 1536,7168; do ARGS="$ARGS --shape $s"; done
OUT=$R bash tools/binary_ab.sh picks $NEWB $OLDB $ARGS --m 8,16,32 --no-floor --no-cublaslt > /dev/null 2>&1
echo "ab picks rc=$?" >> $S
for m in 8 16 32 64; do
  CFG=""
  for r in 64 56 48; do CFG="$CFG --config swapab_r${r}_t${m}_s1_w2_k0_p0"; done
  timeout 200 $NEWB --shape 7168,16384 --shape 7168,2048 --shape 7168,8192 --shape 7168,4608 --m $m $CFG \
    --config-rounds 2 --no-cublaslt --no-bf16a --no-constw --json $R/rows_m$m.jsonl > $R/rows_m$m.txt 2>&1
  echo "rows m=$m rc=$?" >> $S
done
cat $R/rows_m*.jsonl > $R/rows.jsonl
python3 tools/forced_vs_dispatch.py $R/rows.jsonl > $R/rows.md 2>&1
cat $S $R/picks_ab.md $R/rows.md
for f in $R/*.log $R/*.txt $R/*.jsonl; do [ $(stat -c %s $f) -gt 30000 ] && gzip -9 -n $f; done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
