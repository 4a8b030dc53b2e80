# s9 call 1 (the eighth session's planned first call): edge-kernel branch, 2x2 clusters, overlap experiment.
R=$OUT/r; mkdir -p $R; V=build-dev; B=$V/bench/blockfp8-bench
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $R/env.txt 2>&1
timeout 150 $V/tiled-edge-kernel/blockfp8_gpu_tests > $R/tests_ek.log 2>&1; echo "ek rc=$?" >> $R/summary.txt
BLOCKFP8_TILED_CLUSTER_2D=1 timeout 150 $V/c2d/tests/blockfp8_gpu_tests --gtest_filter='Tiled*:Reliability*' > $R/tests_c2d.log 2>&1; echo "c2d rc=$?" >> $R/summary.txt
BLOCKFP8_TEST_TIMEOUT=190 BLOCKFP8_TILED_CLUSTER_2D=1 timeout 250 compute-sanitizer --tool racecheck --error-exitcode 99 $V/c2d/tests/blockfp8_gpu_tests --gtest_filter='ReliabilityTest.SanitizerSmoke' > $R/racecheck_c2d.log 2>&1; echo "racecheck c2d rc=$?" >> $R/summary.txt
T="--shape 24576,1536 --shape 9216,7168 --shape 7168,16384 --shape 32768,512 --m 65,128,384,512 --no-cublaslt --no-floor"
OUT=$R bash tools/binary_ab.sh ek_vs_prev $V/tiled-edge-kernel/blockfp8-bench $V/prev/blockfp8-bench $T >/dev/null 2>&1
OUT=$R bash tools/binary_ab.sh ek_vs_main $V/tiled-edge-kernel/blockfp8-bench $B $T >/dev/null 2>&1
OUT=$R bash tools/binary_ab.sh params $V/prev-plus-params/blockfp8-bench $V/prev/blockfp8-bench --shape 24576,1536 --shape 9216,7168 --m 128,512 --no-cublaslt --no-floor >/dev/null 2>&1
OUT=$R bash tools/env_ab.sh $V/c2d BLOCKFP8_TILED_CLUSTER_2D --shape 2112,7168 --shape 7168,16384 --shape 9216,7168 --shape 24576,1536 --shape 36864,7168 --m 256,384,512,1024,4096 --no-cublaslt --no-floor >/dev/null 2>&1
C="--config swapab_r64_t8_s3_w2_k2_p12 --config swapab_r64_t8_s3_w2_k2_p5 --config swapab_r64_t8_s3_w2_k1_p11 --config swapab_r64_t8_s4_w2_k1_p11 --config swapab_r64_t16_s3_w2_k1_p10 --config swapab_r64_t32_s3_w2_k1_p7"
for rep in 1 2; do timeout 100 $B --shape 2112,7168 --m 1,16,32 --no-cublaslt --no-bf16a --no-check $C --json $R/overlap_$rep.jsonl > $R/overlap_$rep.txt 2>&1; done
cat $R/summary.txt $R/*_ab.md; grep -h "2112" $R/overlap_1.txt | sort -t'|' -k5 -n | head -30
cp bench/results/logs/2026-11-30-s9-ab/call1/command.sh $R/ 2>/dev/null
tar -C $OUT -czf $OUT/all.tgz r; rm -rf $R
