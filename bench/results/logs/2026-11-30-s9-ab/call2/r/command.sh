# s9 call 2: why M = 384 (three token tiles) takes longer than M = 512. Main's build, env switches.
R=$OUT/r; mkdir -p $R; V=build-dev; B=$V/bench/blockfp8-bench
S="--shape 2112,7168 --shape 7168,16384 --shape 9216,7168 --shape 24576,1536 --shape 36864,7168"
OUT=$R AB_VALUES="3 1" bash tools/env_ab.sh $V BLOCKFP8_TILED_N_MTILES $S --m 384,640 --no-cublaslt --no-floor >/dev/null 2>&1
OUT=$R AB_VALUES="0 1" bash tools/env_ab.sh $V BLOCKFP8_TILED_MULTICAST $S --m 384,512,640,896 --no-cublaslt --no-floor >/dev/null 2>&1
C="--config tiled_t128_r112_p6 --config tiled_t128_r144_p5 --config tiled_t128_r192_p4 --config tiled_t128_r128_p5"
for rep in 1 2; do timeout 120 $B --shape 9216,7168 --shape 7168,16384 --m 384,512 --no-floor --no-bf16a --no-constw --no-check $C --json $R/forced_$rep.jsonl > $R/forced_$rep.txt 2>&1; done
cat $R/*_ab.md; grep -h "blockfp8\|cublas" $R/forced_1.txt | grep -v constw
cp bench/results/logs/2026-11-30-s9-ab/call2/command.sh $R/
tar -C $OUT -czf $OUT/all.tgz r; rm -rf $R
