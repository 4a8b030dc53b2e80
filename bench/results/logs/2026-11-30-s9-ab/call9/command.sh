# s9 call 9: the same tiled configuration (r112, pairs along M; identical SASS in both binaries) at
# 7168x16384 M = 512 took 1.22x the time in c2e5932's bench as in 4502615's (call 8). Is it the
# binary, or where the buffers land? Each binary with five M lists (pools of other sizes).
X="--shape 7168,16384 --no-cublaslt --no-floor --no-bf16a --no-constw --no-check"
for ml in 512 512,1024 256,512 512,8192 128,512,2048; do
  echo "new  m=$ml: $(build-dev/bench/blockfp8-bench $X --m $ml --config tiled_t128_r112_p6_c2x1 2>/dev/null | grep ' 512 ' | grep 'blockfp8' | awk -F'|' '{printf "%s %s |", $4, $5}')"
  echo "main m=$ml: $(build-dev/main/blockfp8-bench $X --m $ml --config tiled_t128_r112_p6 2>/dev/null | grep ' 512 ' | grep 'blockfp8' | awk -F'|' '{printf "%s %s |", $4, $5}')"
done
