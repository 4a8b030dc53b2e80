# s11 call 7: the full device suite at 9944093 (warp-MMA decode kernel at M <= 8 and its fused A side).
BUDGET=560 OUT=$OUT bash tools/device_suite.sh build-dev env tests bench python pybench fuzz sanitizer
