#!/usr/bin/env bash
# s36 call 2: call 1's (b) and the 2112x7168 splits again (call 1 wrote more than 8 files to $OUT; only 8 came back).
set -u
[ -d c1 ] || tar -xJf build-carry/s36c1.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c1; B=$N/bench/blockfp8-bench
OUT=$R/wide timeout 200 bash tools/env_ab.sh $N BLOCKFP8_TILED_WIDE --shape 4096,7168 --shape 7168,1024 --shape 7168,2048 --shape 7168,2304 --shape 7168,4096 --shape 7168,4608 --shape 7168,8192 --shape 7168,9216 --shape 7168,16384 --shape 7168,18432 --m 1024,2048,4096,8192 --no-cublaslt > $R/wide_ab.log 2>&1
echo "wide A/B rc=$? at $SECONDS s" >> $S
timeout 60 $B --shape 2112,7168 --m 256,512 --config tiled_t128_r192_p0_c1x1_k3 --config tiled_t128_r192_p0_c1x1_k5 --config tiled_t128_r192_p0_c1x1_k6 --config tiled_t128_r176_p0_c1x1_k5 --config tiled_t128_r144_p0_c1x1_k2 --config tiled_t128_r144_p0_c1x1_k4 --config tiled_t128_r64_p8_c2x1 --config-rounds 3 --no-bf16a --no-constw --commit $(cat $N/COMMIT) --json $R/qkv.jsonl > $R/qkv.md 2> $R/qkv.err
echo "qkv rc=$? $(wc -l < $R/qkv.jsonl) at $SECONDS s" >> $S
cat $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
