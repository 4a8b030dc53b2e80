#!/usr/bin/env bash
# s27 call 13. The quantiser bench with the streaming floor on the same X copies in the same run, at the
# session's last commit: twice, for the spread.
set -u
rm -rf build-new && tar -xJf build-carry/s27c13.tar.xz
R=$OUT/run; mkdir -p $R
C=$(cat build-new/COMMIT)
for rep in 1 2; do
  timeout 120 build-new/bench/blockfp8-bench --quant --commit $C --json $R/quant_$rep.jsonl > $R/quant_$rep.md 2>&1
  echo "rep $rep rc=$?"; tail -4 $R/quant_$rep.md
done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
