#!/usr/bin/env bash
# s38 call 1. c1 = main + 2-D clusters over the 256-token tiles (s37's next/wide-2d-clusters.patch) + an
# experimental dispatcher rule: 2 x 4 in place of every unsplit 2 x 1 pair of 256 x 128 tiles on N a multiple of
# 512 (no M bound yet; BLOCKFP8_TILED_2D=0 turns it and the 128-token rule off).
# (a) TiledTest.* and memcheck on TiledTest.WideTokenTile.
# (b) Forced t256 r128 c2x1 / c2x2 / c2x4 at M = 512, 768, 1024 on the N = 7168 weights and 4096x7168, 3 rounds.
# (c) The rule against its switch at M = 448, 512, 768, 1024, 4096 (twice each way, interleaved).
# (d) 4608x7168 at M = 208-256 (pick: 144 rows split 2) and 3072x7168 at M = 512 against 2-D clusters, 3 rounds.
# (e) Every forced path on 2112x7168 at M = 96, 128, 192, 256 (#3's mid M), 2 rounds.
set -u
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
pack() { tar -C $OUT -czf $OUT/run.tgz run; }
trap 'pack; rm -rf $OUT/run' EXIT
rm -rf c1 && tar -xJf build-carry/s38c1.tar.xz
N=c1; B=$N/bench/blockfp8-bench
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
timeout 120 $N/tests/blockfp8_gpu_tests --gtest_filter='TiledTest.*:GemmTest.ConfigResolveIsWhatRuns:ReliabilityTest.Determinism' > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $R/gpu_tests.log | tr '\n' ' ') at $SECONDS s" >> $S; grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $N/tests/blockfp8_gpu_tests --gtest_filter='TiledTest.WideTokenTile' > $R/san_memcheck.log 2>&1
echo "memcheck rc=$? $(tail -n 2 $R/san_memcheck.log | tr '\n' ' ') at $SECONDS s" >> $S
SH="--shape 7168,512 --shape 7168,1024 --shape 7168,2048 --shape 7168,2304 --shape 7168,4096 --shape 7168,4608 --shape 7168,8192 --shape 7168,9216 --shape 7168,16384 --shape 7168,18432 --shape 4096,7168"
CF="--config tiled_t256_r128_p3_c2x1 --config tiled_t256_r128_p3_c2x2 --config tiled_t256_r128_p3_c2x4 --config-rounds 3"
timeout 200 $B $SH --m 512,768,1024 $CF --no-bf16a --no-constw --json $R/forced.jsonl > $R/forced.md 2> $R/forced.err
echo "forced rc=$? $(wc -l < $R/forced.jsonl) rows at $SECONDS s" >> $S; pack
OUT=$R/ab timeout 170 bash tools/env_ab.sh $N BLOCKFP8_TILED_2D $SH --m 448,512,768,1024,4096 --no-cublaslt > $R/ab.log 2>&1
echo "A/B rc=$? at $SECONDS s" >> $S; pack
CF2="--config tiled_t128_r144_p5_c1x1_k2 --config tiled_t128_r128_p5_c2x4 --config tiled_t128_r128_p5_c2x2 --config tiled_t128_r128_p5_c2x1 --config-rounds 3"
timeout 60 $B --shape 4608,7168 --m 208,224,240,256 $CF2 --no-bf16a --no-constw --json $R/f4608.jsonl > $R/f4608.md 2> $R/f4608.err
echo "4608 rc=$? at $SECONDS s" >> $S
CF3="--config tiled_t128_r192_p4_c1x1_k2 --config tiled_t128_r128_p5_c2x4 --config tiled_t128_r128_p5_c2x2 --config tiled_t128_r96_p0_c2x1 --config tiled_t256_r128_p3_c2x4 --config tiled_t256_r96_p0_c2x1 --config tiled_t128_r128_p5_c1x1_k2 --config-rounds 3"
timeout 60 $B --shape 3072,7168 --m 512 $CF3 --no-bf16a --no-constw --json $R/f3072.jsonl > $R/f3072.md 2> $R/f3072.err
echo "3072 rc=$? at $SECONDS s" >> $S; pack
left=$((570 - SECONDS)); [ $left -gt 150 ] && left=150
timeout $left $B --shape 2112,7168 --m 96,128,192,256 --paths --config-rounds 2 --no-bf16a --no-constw --json $R/paths.jsonl > $R/paths.md 2> $R/paths.err
echo "paths rc=$? $(wc -l < $R/paths.jsonl) rows at $SECONDS s" >> $S
gzip $R/*.md $R/gpu_tests.log $R/san_memcheck.log 2>/dev/null
cat $S
