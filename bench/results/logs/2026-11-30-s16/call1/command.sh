# s16 call 1: where the tiled kernel's k-block goes. Leave-one-out builds of wip/tiled-loo
# (BLOCKFP8_TILED_LOO = 0 full, 1 no math, 2 no operand loads, 3 no promotion, 4 neither math nor loads),
# each at forced configurations, interleaved twice; then the ring depth at fixed widths (main build).
set -u
R=$OUT/r; mkdir -p $R
X=build-dev-x
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
CF="--config tiled_t128_r192_p4_c1x1 --config tiled_t128_r192_p4_c2x1 --config tiled_t128_r128_p5_c1x1 --config tiled_t128_r128_p5_c2x1"
BIG="--shape 2112,7168 --shape 4096,7168 --m 4096"
MID="--shape 7168,4096 --m 256"
COMMON="--no-cublaslt --no-floor --no-check --no-bf16a --no-constw --settle-ms 100 --replays 10"
for rep in 1 2; do
  for v in 0 1 2 3 4; do
    timeout 120 $X/loo$v/blockfp8-bench $BIG $MID $CF $COMMON --json $R/loo${v}_$rep.jsonl > $R/loo${v}_$rep.txt 2>&1 || echo "loo$v rep $rep rc=$?"
  done
done
# Ring depth at fixed width (main build): stages 2..6 where they fit (the bench skips what does not).
DEPTH=""
for r in 128 192; do for s in 2 3 4 5 6; do for c in 1x1 2x1; do DEPTH="$DEPTH --config tiled_t128_r${r}_p${s}_c$c"; done; done; done
timeout 200 build-dev/bench/blockfp8-bench $BIG $MID $DEPTH $COMMON --config-rounds 2 --json $R/depth.jsonl > $R/depth.txt 2>&1 || echo "depth rc=$?"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
tar -C $OUT -czf $OUT/call1.tgz r; rm -rf $R
