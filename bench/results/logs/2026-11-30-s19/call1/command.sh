#!/usr/bin/env bash
# s19 call 1: (a) forced token tiles (8/16/32/64) at M = 1-32 on four weights, three shuffled rounds:
# what a wider token tile costs with no token bytes (M = 1; rows past M are TMA out-of-bounds fill)
# and how the time grows with the token bytes a CTA takes in; (b) per-SM lateness over 20 calls
# (wip/timeline-late-sms's decode_timeline, PDL off), the decode kernel at M = 16 and the floor.
# (Its forced rows did not run: --config refuses a split of 0 and the bench skips such points silently;
# call 2 repeats them with explicit splits.)
set -u
[ -d build-dev ] || tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R
B=build-dev/bench/blockfp8-bench
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.limit --format=csv > $R/gpu.txt 2>&1
timeout 400 $B --shape 36864,7168 --shape 12288,7168 --shape 7168,16384 --shape 2112,7168 --m 1,8,16,32 \
  --no-cublaslt --no-bf16a --config swapab_r64_t8_s0_w2_k0_p0 --config swapab_r64_t16_s0_w2_k0_p0 \
  --config swapab_r64_t32_s0_w2_k0_p0 --config swapab_r64_t64_s0_w2_k0_p0 --config-rounds 3 \
  --json $R/tokens.jsonl > $R/tokens.txt 2>&1
TL=build-dev/bench/decode_timeline
BLOCKFP8_PDL=0 TIMELINE_REPEATS=20 timeout 60 $TL 2112 7168 16 > $R/late_t16.txt 2>&1
BLOCKFP8_PDL=0 TIMELINE_REPEATS=20 timeout 60 $TL 2112 7168 floor > $R/late_floor.txt 2>&1
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
