#!/usr/bin/env bash
# s35 call 5. c1 = 39fd206 (main before the wide tile), c5 = 5cb895f (the wide tile, its dispatcher rule,
# the scale warp's slice as a template argument). (a) The 128-token kernel of both builds, same forced
# configurations, processes alternated twice (c1 c5 c1 c5), two shuffled rounds each: does templating the
# token tile cost the 128-token kernel anything? (b) QGMMA and the issue path in c5's SASS.
set -u
for t in s35c1 s35c5; do tar -xJf build-carry/$t.tar.xz; done  # c1: bench only; c5: bench + libblockfp8.so
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
CF="--config tiled_t128_r192_p4_c2x1 --config tiled_t128_r144_p5_c2x1 --config tiled_t256_r128_p3_c2x1"
SH="--shape 2112,7168 --shape 7168,16384"
for i in 1 2; do for N in c1 c5; do
  timeout 40 $N/bench/blockfp8-bench $SH --m 1024,4096 $CF --config-rounds 2 --no-bf16a --no-constw --no-cublaslt --no-floor --no-check --commit $(cat $N/COMMIT) --json $R/ab.jsonl >> $R/ab.md 2>> $R/ab.err
  echo "$N round $i rc=$?" >> $S
done; done
export CUOBJDUMP=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
timeout 60 python3 tools/sass_wgmma_issue.py c5/libblockfp8.so > $R/sass_wgmma_issue.txt 2>&1; echo "sass rc=$?" >> $S
cat $S; tail -n 30 $R/sass_wgmma_issue.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
