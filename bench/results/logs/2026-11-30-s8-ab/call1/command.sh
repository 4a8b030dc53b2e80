#!/usr/bin/env bash
# Session 8, first device call: GPU tests of main and four branches, then the A/Bs.
R=$OUT/r; mkdir -p $R; M=build-dev/bench/blockfp8-bench; V=build-dev
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv > $R/gpu.txt 2>&1
( timeout 150 $V/tests/blockfp8_gpu_tests > $R/tests_main.log 2>&1; echo "main rc=$?" >> $R/summary.txt ) &
for v in paired-t32 live-quads decode-chains; do
  ( timeout 150 $V/$v/blockfp8_gpu_tests > $R/tests_$v.log 2>&1; echo "$v rc=$?" >> $R/summary.txt ) &
done
( BLOCKFP8_TILED_PAIR_N=1 timeout 150 $V/tiled-pair-n/blockfp8_gpu_tests --gtest_filter='Tiled*:Reliability*' > $R/tests_pairn.log 2>&1; echo "pair-n rc=$?" >> $R/summary.txt ) &
wait
S="--shape 4608,7168 --shape 9216,7168 --shape 36864,7168 --shape 12288,7168 --shape 3072,7168 --shape 24576,1536 --shape 12288,1536 --shape 2112,7168 --m 17,24,32 --no-cublaslt"
OUT=$R bash tools/binary_ab.sh pairedt32 $V/paired-t32/blockfp8-bench $M $S >/dev/null 2>&1
D="--shape 2112,7168 --shape 576,7168 --shape 7168,2048 --shape 4608,7168 --shape 16384,512 --m 1,4,16,32,64,128 --no-cublaslt"
OUT=$R bash tools/binary_ab.sh livequads $V/live-quads/blockfp8-bench $M $D >/dev/null 2>&1
OUT=$R bash tools/binary_ab.sh chains $V/decode-chains/blockfp8-bench $M $D >/dev/null 2>&1
OUT=$R bash tools/env_ab.sh $V/tiled-pair-n BLOCKFP8_TILED_PAIR_N --shape 9216,7168 --shape 7168,16384 --shape 36864,7168 --shape 24576,1536 --m 65,96,128 --no-cublaslt --no-floor >/dev/null 2>&1
timeout 100 $M --shape 16384,512 --shape 32768,512 --shape 12288,1536 --shape 24576,1536 --m 48,64 --sweep --no-cublaslt --no-bf16a --no-constw --json $R/sweep.jsonl > $R/sweep.txt 2>&1
cat $R/summary.txt; grep -h -E "PASSED|FAILED|tests ran" $R/tests_*.log; cat $R/*_ab.md | grep -v "^$" | tail -150
tar -C $OUT -czf $OUT/all.tgz r; rm -rf $R
