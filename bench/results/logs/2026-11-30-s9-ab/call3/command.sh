# s9 call 3: is the tiled kernel's time a function of the process (allocation, M list, what ran before)?
# 7168x16384 M = 640 took 238, 267 and 292 us with one configuration in three A/Bs of call 2.
R=$OUT/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench
X="--shape 7168,16384 --no-cublaslt --no-floor --no-bf16a --no-constw --no-check"
p() { echo "== $1"; shift; "$@" 2>/dev/null | grep "blockfp8" | grep -v "^#" | awk -F'|' '{print $3, $4, $5, $6}'; }
for i in 1 2 3; do p "same args, run $i: m 640" $B $X --m 640 --json $R/same_$i.jsonl; done
for i in 1 2; do p "m 384,640 run $i" $B $X --m 384,640; done
for i in 1 2; do p "m 384,512,640,896 run $i" $B $X --m 384,512,640,896; done
for i in 1 2; do p "N_MTILES=3 m 384,640 run $i" env BLOCKFP8_TILED_N_MTILES=3 $B $X --m 384,640; done
for i in 1 2; do p "m 640,384 run $i" $B $X --m 640,384; done
p "m 640 forced r144 and r128" $B $X --m 640 --config tiled_t128_r144_p5 --config tiled_t128_r128_p5 --config tiled_t128_r192_p4
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv
tar -C $OUT -czf $OUT/all.tgz r
