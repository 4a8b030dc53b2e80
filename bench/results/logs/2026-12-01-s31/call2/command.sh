#!/usr/bin/env bash
# s31 call 2. (a) The split-K pairs (tiled kernel: c2x1_kS / c1x2_kS, clusters of 2S, forced only) and the
# quantiser's spread switch (BLOCKFP8_BF16A_QUANT_SPREAD), uncommitted on b23440a: every GPU test;
# memcheck and racecheck on TiledTest.SplitKBesidePairs; the bf16a tests with PDL forced on and the
# quantiser spread to 2 CTAs an SM. (b) Forced pairs beside split-K against the plain splits, three
# shuffled rounds. (c) The dispatcher's split picks, new build against b23440a (the split instances'
# machine code changed). (d) The PDL quantiser spread over c = 1, 2, 4 CTAs an SM against PDL without a
# bound and against no PDL, interleaved twice (backend blockfp8_bf16a).
set -u
rm -rf c1 c2 && tar -xJf build-carry/s31c1.tar.xz && tar -xJf build-carry/s31c2.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c2/dev O=c1/dev
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
timeout 150 $N/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S; grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
for t in unit api; do timeout 30 $N/tests/blockfp8_${t}_tests > $R/${t}_tests.log 2>&1; echo "$t rc=$? $(tail -1 $R/${t}_tests.log)" >> $S; done
BLOCKFP8_BF16A_QUANT_PDL=1 BLOCKFP8_BF16A_QUANT_SPREAD=2 timeout 60 $N/tests/blockfp8_gpu_tests --gtest_filter='FusedTest.*:Bf16a*:*Bf16a*' > $R/gpu_tests_spread2.log 2>&1
echo "bf16a tests, PDL + spread 2: rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests_spread2.log | tr '\n' ' ')" >> $S
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $N/tests/blockfp8_gpu_tests --gtest_filter='TiledTest.SplitKBesidePairs' > $R/$tool.log 2>&1
  echo "$tool rc=$? $(tail -1 $R/$tool.log)" >> $S
done
B=$N/bench/blockfp8-bench
F="--no-cublaslt --no-bf16a --no-constw --no-floor --config-rounds 3"
timeout 100 $B --shape 2112,7168 --shape 1536,7168 --m 192,256 $F --json $R/pairs_a.jsonl \
  --config tiled_t128_r144_p0_c1x1_k4 --config tiled_t128_r144_p0_c2x1_k4 --config tiled_t128_r128_p0_c1x1_k4 \
  --config tiled_t128_r128_p0_c2x1_k4 --config tiled_t128_r192_p0_c2x1_k3 --config tiled_t128_r128_p0_c2x1_k3 > $R/pairs_a.md 2>&1
echo "pairs a rc=$?" >> $S
timeout 80 $B --shape 4096,7168 --shape 4608,7168 --m 192,256 $F --json $R/pairs_b.jsonl \
  --config tiled_t128_r128_p0_c1x1_k2 --config tiled_t128_r144_p0_c1x1_k2 --config tiled_t128_r144_p0_c2x1_k2 \
  --config tiled_t128_r160_p0_c1x1_k2 --config tiled_t128_r160_p0_c2x1_k2 > $R/pairs_b.md 2>&1
echo "pairs b rc=$?" >> $S
timeout 100 $B --shape 4608,7168 --shape 9216,7168 --shape 7168,16384 --m 64,96,128 $F --json $R/pairs_c.jsonl \
  --config tiled_t128_r160_p0_c1x1_k4 --config tiled_t128_r160_p0_c1x2_k4 --config tiled_t128_r144_p0_c1x1_k2 \
  --config tiled_t128_r160_p0_c1x1_k2 --config tiled_t128_r160_p0_c1x2_k2 --config tiled_t128_r192_p0_c1x1_k3 \
  --config tiled_t128_r192_p0_c1x1_k2 --config tiled_t128_r192_p0_c1x2_k2 > $R/pairs_c.md 2>&1
echo "pairs c rc=$?" >> $S
A=""; for s in 2112,7168 1536,7168 4096,7168 4608,7168 9216,7168 7168,16384; do A="$A --shape $s"; done
OUT=$R/splitab timeout 150 bash tools/binary_ab.sh splitpicks $B $O/bench/blockfp8-bench $A --m 96,128,192,256 --no-cublaslt --no-floor > /dev/null 2>&1
echo "split picks ab rc=$?" >> $S
A=""; for s in 2112,7168 576,7168 7168,2048 3072,1536 4096,7168 4608,7168; do A="$A --shape $s"; done
for rep in 1 2; do
  for v in "1 2" "1 0" "0 0" "1 1" "1 4"; do
    set -- $v
    BLOCKFP8_BF16A_QUANT_PDL=$1 BLOCKFP8_BF16A_QUANT_SPREAD=$2 timeout 60 $B $A --m 16,64,128,256 --no-cublaslt --no-floor \
      --no-constw --no-check --json $R/q_$1_$2_$rep.jsonl > /dev/null 2>&1 || echo "q $v rep $rep failed" >> $S
  done
done
for v in 1_2 1_0 1_1 1_4; do
  AB_BACKEND=blockfp8_bf16a python3 tools/ab_table.py "pdl_spread_$v" "no_pdl" $R/q_${v}_1.jsonl $R/q_${v}_2.jsonl $R/q_0_0_1.jsonl $R/q_0_0_2.jsonl > $R/q_${v}_vs_nopdl.md
done
echo "quant spread done" >> $S
cat $S
gzip $R/gpu_tests.log $R/memcheck.log $R/racecheck.log 2>/dev/null
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
