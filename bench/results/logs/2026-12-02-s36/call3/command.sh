#!/usr/bin/env bash
# s36 call 3. c2 = 39239f3 (256-token tiles on by default, from K = 2048, and as one round against a
# partial second of 128-token tiles from M = 385; SASS of every kernel identical to 86aa0b5's, call 1).
# (a) Every GPU test, unit and api tests. (b) The whole benchmark, its repeat check, the Python GPU tests
# and the plots: it replaces latest.jsonl. (c) The rule's new points interleaved with BLOCKFP8_TILED_WIDE=0,
# twice each way (M = 400, 448, 512, 768). Everything under $OUT goes back as one tarball (8 files at most).
set -u
trap 'tar -C $OUT -czf $OUT/run.tgz run && rm -rf $OUT/run' EXIT
rm -rf c2 && tar -xJf build-carry/s36c2.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c2; B=$N/bench/blockfp8-bench
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
timeout 150 $N/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S; grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
for t in unit api; do timeout 20 $N/tests/blockfp8_${t}_tests > $R/${t}_tests.log 2>&1; echo "$t rc=$? $(tail -1 $R/${t}_tests.log)" >> $S; done
export BLOCKFP8_COMMIT=$(cat $N/COMMIT)
timeout 290 $B --commit $BLOCKFP8_COMMIT --json $R/bench.jsonl > $R/bench.md 2> $R/bench.err; echo "bench rc=$? $(wc -l < $R/bench.jsonl) at $SECONDS s" >> $S
timeout 45 $B --repeat-check --m 1,16,64,256,512 > $R/repeat.log 2>&1; echo "repeat rc=$? $(tail -n 2 $R/repeat.log | tr '\n' ' ')" >> $S
BLOCKFP8_LIBRARY=$PWD/$N/libblockfp8.so timeout 60 python3 -m pytest tests/python/test_gpu.py -q -p no:cacheprovider -x > $R/pytest.log 2>&1
echo "pytest rc=$? $(tail -1 $R/pytest.log) at $SECONDS s" >> $S
timeout 40 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --commit $BLOCKFP8_COMMIT --json bench.jsonl" > $R/plot.log 2>&1; echo "plot rc=$?" >> $S
left=$((570 - SECONDS)); [ $left -gt 150 ] && left=150
OUT=$R/wide timeout $left bash tools/env_ab.sh $N BLOCKFP8_TILED_WIDE --shape 7168,2048 --shape 7168,2304 --shape 7168,4096 --shape 7168,4608 --shape 7168,8192 --shape 7168,9216 --shape 7168,16384 --shape 7168,18432 --shape 4608,7168 --m 400,448,512,768 --no-cublaslt > $R/wide_ab.log 2>&1
echo "wide A/B rc=$? at $SECONDS s" >> $S
cat $S
gzip $R/gpu_tests.log $R/bench.md
