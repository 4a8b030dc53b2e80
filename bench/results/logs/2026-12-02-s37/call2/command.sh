#!/usr/bin/env bash
# s37 call 2. c2 = the stream-K prototype of the tiled kernel (BLOCKFP8_TILED_STREAMK=1: unsplit 128-token
# tiles of 128, 144 or 192 rows over every resident cluster, a share of the grid's k-blocks each, partials of
# shared units through a static workspace in L2; the existing instances' SASS identical to main's).
# (a) GPU tests with the switch on (tiled, dispatcher, reliability; not ConcurrentStreams: one static workspace a process), memcheck and racecheck on two tiled tests.
# (b) The bench with checks, switch on, at M = 256-1024 on the shapes it moves.
# (c) The dispatcher's rows, switch on and off, twice each way, interleaved (tools/env_ab.sh).
set -u
trap 'tar -C $OUT -czf $OUT/run.tgz run && rm -rf $OUT/run' EXIT
rm -rf c2 && tar -xJf build-carry/s37c2.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c2; B=$N/bench/blockfp8-bench
export BLOCKFP8_LIBRARY=$PWD/$N/libblockfp8.so PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
F='TiledTest.*:GemmTest.DispatcherShapes:GemmTest.OutputDtypes:GemmTest.ScaleLayouts:GemmTest.Padding:GemmTest.GraphCapture:ReliabilityTest.Determinism:ReliabilityTest.SanitizerSmoke:FusedTest.TiledPlanBelowOneTokenTile'
BLOCKFP8_TILED_STREAMK=1 timeout 150 $N/tests/blockfp8_gpu_tests --gtest_filter="$F" > $R/gpu_tests_sk.log 2>&1
echo "gpu tests (stream-K on) rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests_sk.log | tr '\n' ' ')" >> $S; grep -E "FAILED|Failure" $R/gpu_tests_sk.log | head >> $S
for tool in memcheck racecheck; do
  BLOCKFP8_TILED_STREAMK=1 timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $N/tests/blockfp8_gpu_tests --gtest_filter='TiledTest.Padding:TiledTest.OddKBlockCounts' > $R/san_$tool.log 2>&1
  echo "$tool rc=$? $(tail -n 2 $R/san_$tool.log | tr '\n' ' ')" >> $S
done
echo "phase a done at $SECONDS s" >> $S
SH="--shape 7168,2048 --shape 7168,2304 --shape 7168,4096 --shape 7168,4608 --shape 7168,8192 --shape 7168,9216 --shape 7168,16384 --shape 7168,18432 --shape 7168,1024 --shape 7168,512 --shape 4096,7168 --shape 4608,7168"
BLOCKFP8_TILED_STREAMK=1 timeout 150 $B $SH --m 256,512,1024 --no-cublaslt --no-bf16a --no-constw --json $R/checked_sk.jsonl > $R/checked_sk.md 2>&1
echo "checked bench (stream-K on) rc=$? at $SECONDS s; worst err $(python3 -c "
import json; r=[json.loads(l) for l in open('$R/checked_sk.jsonl')]; b=[x for x in r if x['backend']=='blockfp8']
print(max(x['rel_err'] or 0 for x in b), 'written all', all(x['written'] for x in b), len(b), 'points')")" >> $S
timeout 40 $B --shape 7168,2304 --repeat-check --m 256,512 > $R/repeat_sk.log 2>&1; echo "repeat (off) rc=$?" >> $S
BLOCKFP8_TILED_STREAMK=1 timeout 40 $B --shape 7168,2304 --repeat-check --m 256,512 > $R/repeat_sk.log 2>&1; echo "repeat (on) rc=$? $(tail -n 2 $R/repeat_sk.log | tr '\n' ' ')" >> $S
left=$((560 - SECONDS)); [ $left -gt 300 ] && left=300
OUT=$R/ab timeout $left bash tools/env_ab.sh $N BLOCKFP8_TILED_STREAMK $SH --m 256,384,512,1024 --no-cublaslt > $R/ab.log 2>&1
echo "A/B rc=$? at $SECONDS s" >> $S
cat $S
