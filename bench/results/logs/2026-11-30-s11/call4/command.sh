# s11 call 4: the full device suite at 7865527 (the warp-MMA decode kernel dispatched at M <= 8).
BUDGET=560 OUT=$OUT bash tools/device_suite.sh build-dev env tests bench python pybench fuzz sanitizer
