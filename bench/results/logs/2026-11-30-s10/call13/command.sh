# s10 call 13: the probe says a token tile that every CTA of a wave loads at once costs 1.4-2x at the
# L2 (ring_a against ring). Does multicasting it over four CTAs along N (c1x4: each CTA loads 32 of
# the 128 token rows for all four) beat single CTAs and pairs? Forced, shuffled rounds, settled.
set -u
R=$OUT/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench
T=tiled_t128
C=""; for w in 128 192; do for c in c1x1 c2x1 c1x2 c1x4; do C="$C --config ${T}_r${w}_p0_$c"; done; done
for nk in 7168,16384 2112,7168 4096,7168 24576,1536 7168,2048; do
  timeout 150 $B --shape $nk --m 256,1024,4096 --no-floor --no-bf16a --no-constw --no-check --config-rounds 3 --settle-ms 100 $C --json $R/c14_${nk/,/x}.jsonl > $R/c14_${nk/,/x}.log 2>&1; echo "$nk rc=$?"
done
tar -C $OUT -czf $OUT/call13.tgz r
