# s11 call 11: the fused kernels' quantisation step factored into quant_math.cuh (quantize_bf16_group):
# every fused test (bitwise against quantiser + GEMM) and the quantiser's, then memcheck on the smoke test.
set -u
R=$OUT/r; mkdir -p $R; T=build-dev/tests/blockfp8_gpu_tests
timeout 150 $T --gtest_filter='Fused*:Quantize1x128.*:ReliabilityTest.BadInputsBf16a' > $R/gtest.log 2>&1; echo "gtest rc=$?"; tail -2 $R/gtest.log
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 99 $T --gtest_filter='FusedTest.SanitizerSmoke' > $R/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -1 $R/memcheck.log
