# s10 call 16: split-K in the tiled kernel at one token tile (M = 64, 128), which the dispatcher does
# not yet allow, against its picks, on wide weights where blockfp8 loses to cuBLASLt at M = 128.
set -u
R=$OUT/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench
C="--config tiled_t128_r128_p0_c1x1_k2 --config tiled_t128_r192_p0_c1x1_k2 --config tiled_t128_r192_p0_c1x1_k3"
for nk in 7168,16384 7168,8192 4608,7168 12288,7168 7168,2048; do
  timeout 45 $B --shape $nk --m 64,128 --no-floor --no-bf16a --no-constw --no-check --config-rounds 3 --settle-ms 100 $C --json $R/split1_${nk/,/x}.jsonl > $R/split1_${nk/,/x}.log 2>&1; echo "$nk rc=$?"
done
tar -C $OUT -czf $OUT/call16.tgz r
