#!/usr/bin/env bash
# s38 call 2. c2 = 8eeda2c: 2-D clusters over 256-token tiles, the dispatcher's 2 x 4 in place of the 256-token
# pairs up to M = 1024 where no more rounds. (a) Every GPU test, unit, api, the Python GPU tests. (b) The whole
# benchmark (it replaces latest.jsonl) and the plots. (c) If time is left: forced 256-token c2x1 / c2x4 at
# M = 1536 and 2048 on four N = 7168 weights (is 1024 the right bound?).
set -u
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
pack() { tar -C $OUT -czf $OUT/run.tgz run; }
trap 'pack; rm -rf $OUT/run' EXIT
rm -rf c2 && tar -xJf build-carry/s38c2.tar.xz
N=c2; B=$N/bench/blockfp8-bench
export BLOCKFP8_COMMIT=$(cat $N/COMMIT)
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
timeout 130 $N/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests.log | tr '\n' ' ') at $SECONDS s" >> $S; grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
for t in unit api; do timeout 20 $N/tests/blockfp8_${t}_tests > $R/${t}_tests.log 2>&1; echo "$t rc=$? $(tail -1 $R/${t}_tests.log)" >> $S; done
BLOCKFP8_LIBRARY=$PWD/$N/libblockfp8.so timeout 100 python3 -m pytest tests/python/test_gpu.py -q -p no:cacheprovider -x > $R/pytest.log 2>&1
echo "pytest rc=$? $(tail -1 $R/pytest.log) at $SECONDS s" >> $S
gzip $R/gpu_tests.log; pack
timeout 300 $B --commit $BLOCKFP8_COMMIT --json $R/bench.jsonl > $R/bench.md 2> $R/bench.err; echo "bench rc=$? $(wc -l < $R/bench.jsonl) at $SECONDS s" >> $S
timeout 30 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --commit $BLOCKFP8_COMMIT --json bench.jsonl" > $R/plot.log 2>&1; echo "plot rc=$? at $SECONDS s" >> $S
gzip $R/bench.md; pack
left=$((575 - SECONDS))
if [ $left -gt 40 ]; then
  timeout $left $B --shape 7168,2304 --shape 7168,4608 --shape 7168,9216 --shape 7168,18432 --m 1536,2048 --config tiled_t256_r128_p3_c2x1 --config tiled_t256_r128_p3_c2x4 --config-rounds 2 --no-bf16a --no-constw --no-cublaslt --json $R/forced_big.jsonl > /dev/null 2> $R/forced_big.err
  echo "forced big rc=$? at $SECONDS s" >> $S
fi
cat $S
