#!/usr/bin/env bash
# s37 call 5. c5 = the 2-D clusters with the dispatcher's rule (2 x 4 over 128 x 128 tiles at M = 193-256
# in place of the 2 x 1 pairs, one round of clusters of 8, N a multiple of 512; BLOCKFP8_TILED_2D=0 turns
# it off). (a) The rule against its switch, twice each way, interleaved, at M = 200, 224, 256 on the ten
# N = 7168 weights. (b) Every GPU test. (c) The whole benchmark (it replaces latest.jsonl) and the plots.
# The archive is rewritten after each phase, so a run cut short still brings back what it finished.
set -u
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
pack() { tar -C $OUT -czf $OUT/run.tgz run; }
rm -rf c5 && tar -xJf build-carry/s37c5.tar.xz
N=c5; B=$N/bench/blockfp8-bench
export BLOCKFP8_COMMIT=$(cat $N/COMMIT)
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
SH="--shape 7168,512 --shape 7168,1024 --shape 7168,2048 --shape 7168,2304 --shape 7168,4096 --shape 7168,4608 --shape 7168,8192 --shape 7168,9216 --shape 7168,16384 --shape 7168,18432"
OUT=$R/ab timeout 110 bash tools/env_ab.sh $N BLOCKFP8_TILED_2D $SH --m 200,224,256 --no-cublaslt > $R/ab.log 2>&1
echo "A/B rc=$? at $SECONDS s" >> $S; pack
timeout 130 $N/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests.log | tr '\n' ' ') at $SECONDS s" >> $S; grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
for t in unit api; do timeout 20 $N/tests/blockfp8_${t}_tests > $R/${t}_tests.log 2>&1; echo "$t rc=$? $(tail -1 $R/${t}_tests.log)" >> $S; done
gzip $R/gpu_tests.log; pack
timeout 290 $B --commit $BLOCKFP8_COMMIT --json $R/bench.jsonl > $R/bench.md 2> $R/bench.err; echo "bench rc=$? $(wc -l < $R/bench.jsonl) at $SECONDS s" >> $S
timeout 30 python3 bench/plot.py $R/bench.jsonl --out-dir $R/plots --md $R/results.md --command "blockfp8-bench --commit $BLOCKFP8_COMMIT --json bench.jsonl" > $R/plot.log 2>&1; echo "plot rc=$? at $SECONDS s" >> $S
gzip $R/bench.md; pack
cat $S
