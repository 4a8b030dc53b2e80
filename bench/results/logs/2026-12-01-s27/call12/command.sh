#!/usr/bin/env bash
# s27 call 12. Validation at the session's last library change (the quantiser's warp count a template
# constant: the 4-warp instances' SASS equals 1c4e985's, the 8-warp ones 7474127's). GPU tests (all),
# memcheck on the quantiser's tests, and the quantiser bench once.
set -u
rm -rf build-new && tar -xJf build-carry/s27c12.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
timeout 200 build-new/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure" $R/gpu_tests.log | head >> $S
timeout 150 compute-sanitizer --tool memcheck build-new/tests/blockfp8_gpu_tests --gtest_filter='Quantize1x128.*' > $R/memcheck.log 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $R/memcheck.log | tr '\n' ' ')" >> $S
timeout 100 build-new/bench/blockfp8-bench --quant --json $R/quant.jsonl > $R/quant.log 2>&1
echo "quant rc=$?" >> $S; cat $R/quant.log >> $S
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
