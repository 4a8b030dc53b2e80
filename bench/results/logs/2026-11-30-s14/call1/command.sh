#!/usr/bin/env bash
# s14 call 1: GPU tests on a19b79b + the bf16a weight prefetch (gemm_launch change's first GPU run),
# FusedTest under memcheck with the whole slice prefetched, then bf16a with prefetch 0 / 64 KB / all /
# 64 KB with the one-launch path off, interleaved twice.
set -u
R=/tmp/r1; rm -rf $R; mkdir -p $R
B=build-dev
timeout 200 $B/tests/blockfp8_gpu_tests > $R/gpu_tests.log 2>&1; echo "gpu_tests rc=$?"; tail -3 $R/gpu_tests.log
BLOCKFP8_BF16A_PREFETCH_KB=100000 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/blockfp8_gpu_tests --gtest_filter='FusedTest.EveryMUpTo32OnThePrimaryShape:FusedTest.DecodeShapes*:FusedTest.LayoutsAndInputDtypes' > $R/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -3 $R/memcheck.log
ARGS="--shape 2112,7168 --shape 576,7168 --shape 4096,7168 --shape 7168,2048 --m 1,2,4,8,16,32 --no-cublaslt --no-floor --no-constw"
for rep in 1 2; do
  for v in 0 64 100000 f64; do
    case $v in f64) E="BLOCKFP8_FUSED=0 BLOCKFP8_BF16A_PREFETCH_KB=64";; *) E="BLOCKFP8_BF16A_PREFETCH_KB=$v";; esac
    env $E timeout 150 $B/bench/blockfp8-bench $ARGS --json $R/pf${v}_$rep.jsonl > $R/pf${v}_$rep.log 2>&1 || echo "bench $v $rep failed: $(tail -2 $R/pf${v}_$rep.log)"
  done
done
python3 tools/bf16a_ab.py off=$R/pf0_1.jsonl,$R/pf0_2.jsonl kb64=$R/pf64_1.jsonl,$R/pf64_2.jsonl all=$R/pf100000_1.jsonl,$R/pf100000_2.jsonl kb64_nofuse=$R/pff64_1.jsonl,$R/pff64_2.jsonl | tee $R/ab.md
tar czf $OUT/r1.tgz -C /tmp r1
