#!/usr/bin/env bash
# s19 call 5 (wip/decode-token-rows at fc62a02): what the token boxes cost the decode kernel. Three builds of
# one run, interleaved: old (c5f3caf: every token box TN rows, TMA fills rows past M with zeros), new
# (boxes stop at row M where one token tile holds every token), and new with BLOCKFP8_EXP_NO_TOKENS=1
# (no token loads at all; results wrong, timing only). Forced 32- and 64-token tiles at the splits
# the dispatcher takes, three shuffled rounds each, M = 1, 12, 20, 32 (and the dispatcher's choice).
set -u
rm -rf build-dev build-dev-x && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R
NEW=build-dev/bench/blockfp8-bench OLD=build-dev-x/main/blockfp8-bench
run() {  # name bin env...
  local name=$1 bin=$2; shift 2
  for sk in 7168,16384:1:14 36864,7168:2:7 2112,7168:3:0; do
    IFS=: read -r shape s p <<<"$sk"
    env "$@" timeout 200 $bin --shape $shape --m 1,12,20,32 --no-cublaslt --no-bf16a --no-check \
      --config swapab_r64_t32_s${s}_w2_k1_p$p --config swapab_r64_t64_s${s}_w2_k1_p7 --config-rounds 3 \
      --json $R/$name.jsonl >> $R/$name.txt 2>&1
  done
}
run old_1 $OLD X=0
run new_1 $NEW X=0
run none_1 $NEW BLOCKFP8_EXP_NO_TOKENS=1
run old_2 $OLD X=0
run new_2 $NEW X=0
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
