#!/usr/bin/env bash
# s25 call 1. N = wip/weight-l2-early (blockfp8_gemm_bf16a's two launches: the decode kernels send their
# first weight bytes to L2 before waiting for the quantiser); O = main at the start of the session.
# GPU tests and memcheck of the two-launch fused tests on N; the bf16a path with the prefetch on and
# off (BLOCKFP8_WEIGHT_L2_EARLY, interleaved twice); the plain path N against O (its kernels gained the
# prefetch's branch before the wait); outputs bitwise O vs N.
set -u
rm -rf build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
T=build-var/N/blockfp8_gpu_tests
timeout 100 $T > $R/gpu_tests.log 2>&1
echo "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu_tests.log | tr '\n' ' ')" >> $S
grep -E "FAILED|Failure" $R/gpu_tests.log | head -20 >> $S
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $T --gtest_filter='FusedTest.FallbackShapes*:FusedTest.LayoutsAndInputDtypes' > $R/memcheck.log 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck.log | tail -1)" >> $S
ARGS=""
for s in 2112,7168 576,7168 1536,7168 4096,7168 7168,2048 3072,1536 7168,16384; do ARGS="$ARGS --shape $s"; done
OUT=$R AB_BACKEND=blockfp8_bf16a timeout 220 bash tools/env_ab.sh build-var/N BLOCKFP8_WEIGHT_L2_EARLY $ARGS \
  --m 2,4,8,16,32,64,128 --no-floor --no-cublaslt > /dev/null 2>&1
echo "ab bf16a rc=$?" >> $S
python3 - $R/BLOCKFP8_WEIGHT_L2_EARLY*_?.jsonl > $R/ratio.md <<'P'
import json, sys, collections
v = collections.defaultdict(list)
for f in sys.argv[1:]:
    side = f.split('EARLY')[1][0]
    for r in map(json.loads, open(f)):
        if r['backend'] == 'blockfp8_bf16a' and r.get('x_quant_gemm'):
            v[(r['N'], r['K'], r['M'], side)].append(r['x_quant_gemm'])
print('| N x K | M | bf16a / quant_gemm, prefetch on | off |')
print('|---|---:|---:|---:|')
for key in sorted({k[:3] for k in v}):
    on, off = v.get(key + ('1',), []), v.get(key + ('0',), [])
    f = lambda x: ', '.join(f'{y:.3f}' for y in x)
    print(f'| {key[0]}x{key[1]} | {key[2]} | {f(on)} | {f(off)} |')
P
OUT=$R timeout 150 bash tools/binary_ab.sh P build-var/N/blockfp8-bench build-var/O/blockfp8-bench $ARGS \
  --m 1,2,4,8,16,32,64,128 --no-floor --no-cublaslt > /dev/null 2>&1
echo "ab plain rc=$?" >> $S
timeout 60 python3 tools/bitwise_vs_lib.py build-var/O/libblockfp8.so build-var/N/libblockfp8.so \
  --m 1,4,16,32,64,128 > $R/bitwise.log 2>&1
echo "bitwise O vs N rc=$? $(tail -1 $R/bitwise.log)" >> $S
cat $S
cat $R/BLOCKFP8_WEIGHT_L2_EARLY_ab.md $R/ratio.md $R/P_ab.md
gzip -9 -n $R/gpu_tests.log $R/memcheck.log 2>/dev/null
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
