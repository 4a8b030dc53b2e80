export BLOCKFP8_LIBRARY=$PWD/build-dev/libblockfp8.so
echo "commit $(cat build-dev/COMMIT) $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "local-memory ops (LDL/STL) in SASS: $(cuobjdump -sass build-dev/libblockfp8.so | grep -cE '\b(LDL|STL)\b'); QGMMA kinds: $(cuobjdump -sass build-dev/libblockfp8.so | grep -oE 'QGMMA\.[^ ]*' | sort -u | wc -l)"
timeout 120 build-dev/tests/blockfp8_gpu_tests --gtest_filter='Fused*:*Bf16a*:GemmTest.*' > $OUT/gpu_tests.log 2>&1; echo "gpu_tests rc=$? $(grep -E 'PASSED|FAILED' $OUT/gpu_tests.log | tr '\n' ' ')"
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 99 build-dev/tests/blockfp8_gpu_tests --gtest_filter='FusedTest.SanitizerSmoke' > $OUT/san_racecheck.log 2>&1; echo "racecheck rc=$? $(tail -1 $OUT/san_racecheck.log)"
timeout 30 compute-sanitizer --tool memcheck --error-exitcode 99 build-dev/tests/blockfp8_gpu_tests --gtest_filter='FusedTest.SanitizerSmoke:ReliabilityTest.BadInputsBf16a' > $OUT/san_memcheck.log 2>&1; echo "memcheck rc=$? $(tail -1 $OUT/san_memcheck.log)"
timeout 100 python3 -m pytest -q tests/python/test_fused_gpu.py > $OUT/pytest.log 2>&1; echo "pytest rc=$? $(tail -1 $OUT/pytest.log)"
timeout 120 build-dev/bench/blockfp8-bench --shape 2112,7168 --shape 576,7168 --shape 32768,512 --shape 7168,16384 --m 1,2,4,5,8,16,32 --no-cublaslt --no-constw --json $OUT/bf16a.jsonl > $OUT/bf16a.md 2>$OUT/bf16a.err; echo "bench rc=$?"
sed -n '/### bf16/,$p' $OUT/bf16a.md | cut -c1-140
