# s9 call 11: with settling, the same forced configuration at M = 512 took 160 us in some graphs and
# 201-205 us in others (call 10). Six graphs of one configuration in one process, settled and not.
B=build-dev/bench/blockfp8-bench
C="--config tiled_t128_r112_p6_c2x1"
X="--shape 7168,16384 --m 256,512 --no-cublaslt --no-floor --no-bf16a --no-constw --no-check $C $C $C $C $C $C"
for s in 100 0; do
  echo "settle $s:"; $B $X --settle-ms $s 2>/dev/null | grep ' 512 ' | grep blockfp8 | awk -F'|' '{printf "%s %s\n", $4, $5}'
done
