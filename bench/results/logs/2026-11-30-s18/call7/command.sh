#!/usr/bin/env bash
# s18 call 7: the tiled split-K sum with two quads' remote loads a pass (wip/tiled-split-two-quads)
# against main (51e6901), interleaved, at M = 96-256 where the dispatcher splits K; GPU tiled tests of
# the variant are not run (bench --no-check is the A/B's; a checked run of the variant follows).
set -u
R=$OUT/run; mkdir -p $R
SH="--shape 2112,7168 --shape 4096,7168 --shape 3072,7168 --shape 1536,7168 --shape 7168,16384 --shape 7168,2048 --m 96,128,192,256 --no-cublaslt --no-floor"
OUT=$R bash tools/binary_ab.sh quads2 build-dev-x/quads2/blockfp8-bench build-dev-x/main/blockfp8-bench $SH > $R/ab.log 2>&1
timeout 120 build-dev-x/quads2/blockfp8-bench $SH --no-bf16a --json $R/checked.jsonl > $R/checked.log 2>&1; echo "checked rc=$?" >> $R/summary.txt
cat $R/quads2_ab.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
