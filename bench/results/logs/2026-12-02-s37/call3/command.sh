#!/usr/bin/env bash
# s37 call 3. c3 = call 2's stream-K prototype plus a timing-only switch (BLOCKFP8_DIAG_SK_NO_FIXUP=1: no
# partial posted or gathered, wrong results). Where does stream-K's loss at M = 256 go? Five variants,
# twice each, interleaved: off / on / on without the fix-up, settled (the bench's default), and off / on
# unsettled (--settle-ms 0: graphs timed at the boost clock, not after 100 ms at the power-capped one).
set -u
trap 'tar -C $OUT -czf $OUT/run.tgz run && rm -rf $OUT/run' EXIT
rm -rf c3 && tar -xJf build-carry/s37c3.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
N=c3; B=$N/bench/blockfp8-bench
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $R/gpu.txt
run() {  # tag streamk nofixup settle shape m
  BLOCKFP8_TILED_STREAMK=$2 BLOCKFP8_DIAG_SK_NO_FIXUP=$3 timeout 60 $B --shape $5 --m $6 --settle-ms $4 --no-cublaslt \
    --no-bf16a --no-constw --no-check --json $R/$1.jsonl > /dev/null 2>&1 || echo "$1 failed" >> $S
}
for rep in 1 2; do
  for v in "off 0 0 100" "on 1 0 100" "nofix 1 1 100" "off0 0 0 0" "on0 1 0 0"; do
    set -- $v
    for pt in 7168,512:256 7168,2048:256 7168,4096:256 7168,16384:256 4096,7168:512 7168,8192:256; do
      run ${1}_$rep $2 $3 $4 ${pt%:*} ${pt#*:}
    done
  done
  echo "rep $rep done at $SECONDS s" >> $S
done
cat $S
