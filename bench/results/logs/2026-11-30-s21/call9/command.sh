#!/usr/bin/env bash
# s21 call 9: (a) wip/release-if-landed (9903698, on 0e19693): a drained stage goes back before the next
# wait only if the next has not landed, else the next stage's wgmma go out first. GPU tests, outputs
# bitwise against main (20bfa3e kernels), interleaved A/B against main. (b) wip/diag-switches (a2924ee):
# no wgmma (nw) or no promotion (np) against main, two interleaved runs.
set -u
rm -rf build-dev build-dev-x && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt; X=build-dev-x
BLOCKFP8_TEST_TIMEOUT=30 timeout 60 $X/rel/blockfp8_gpu_tests > $R/gpu_tests_rel.log 2>&1
echo "gpu_tests rel rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests_rel.log | head -3 | tr '\n' ' ')" >> $S
timeout 60 python3 tools/bitwise_vs_lib.py build-dev/libblockfp8.so $X/rel/libblockfp8.so > $R/bitwise.log 2>&1
echo "bitwise rc=$? $(tail -1 $R/bitwise.log)" >> $S
A="--shape 7168,16384 --shape 2112,7168 --m 8,32,64 --no-check --no-cublaslt --no-bf16a --no-constw --no-floor"
for rep in 1 2; do
  for v in base:build-dev/bench nw:$X/nw np:$X/np; do
    n=${v%%:*}; timeout 40 ${v#*:}/blockfp8-bench $A --json $R/diag_${n}_$rep.jsonl > /dev/null 2>&1; echo "diag $n $rep rc=$?" >> $S
  done
done
SHAPES=""
for s in 7168,16384 7168,9216 12288,7168 36864,7168 4096,7168 2112,7168 576,7168; do SHAPES="$SHAPES --shape $s"; done
t0=$SECONDS; OUT=$R timeout 100 bash tools/binary_ab.sh rel $X/rel/blockfp8-bench build-dev/bench/blockfp8-bench \
  $SHAPES --m 8,16,32,48,64 --no-cublaslt > $R/ab.log 2>&1; echo "ab rc=$? $((SECONDS - t0)) s" >> $S
BLOCKFP8_TEST_TIMEOUT=40 timeout 45 compute-sanitizer --tool synccheck --error-exitcode 99 $X/rel/blockfp8_gpu_tests \
  --gtest_filter='ReliabilityTest.SanitizerSmoke:GemmTest.ForcedSwapabConfigs' > $R/synccheck_rel.log 2>&1
echo "synccheck rel rc=$? $(tail -1 $R/synccheck_rel.log)" >> $S
cat $S; cat $R/rel_ab.md
gzip -9 -n $R/*.jsonl $R/gpu_tests_rel.log
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
