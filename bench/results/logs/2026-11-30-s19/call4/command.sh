#!/usr/bin/env bash
# s19 call 4: where the decode kernel's warps stall at 8, 32 and 64 tokens (ncu PC sampling, SASS
# source page), 7168x16384 M = 1 split 1 (112 CTAs, 128 k-blocks each): calls 2-3 found ~70 ns (t32)
# and ~240 ns (t64) more a k-block than t8, hot or cold, at any M. (First try matched no kernel: the
# regex needs --kernel-name-base demangled; the second matched none either: plain regex:swapab_splitk_kernel,
# the dispatcher takes the warp-MMA kernel here, so only the forced configuration matches.)
set -u
[ -d build-dev ] || tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R
B=build-dev/bench/blockfp8-bench
ARGS="--shape 7168,16384 --m 1 --no-floor --no-cublaslt --no-bf16a --no-check"
for c in t8:14 t32:14 t64:7; do
  t=${c%:*} p=${c#*:}; tn=${t#t}
  timeout 150 ncu --kernel-name-base demangled --section SourceCounters --section WarpStateStats --launch-skip 1 --launch-count 1 \
    --kernel-name regex:swapab_splitk_kernel --page source --print-source sass --csv \
    $B $ARGS --config swapab_r64_${t}_s1_w2_k1_p$p > $R/ncu_$t.csv 2> $R/ncu_$t.err
  echo "$t rc=$? lines=$(wc -l < $R/ncu_$t.csv)"
  timeout 150 ncu --kernel-name-base demangled --section SourceCounters --section WarpStateStats --section SpeedOfLight --launch-skip 1 --launch-count 1 \
    --kernel-name regex:swapab_splitk_kernel --print-details all \
    $B $ARGS --config swapab_r64_${t}_s1_w2_k1_p$p > $R/ncu_$t.details 2>&1
done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
