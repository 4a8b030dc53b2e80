# s13 call 8: the full device suite at fb12fda (tiled split-K over clusters of up to 8 with the
# in-flight rank sum, the tiled kernel at M = 65-128 on long-K weights from 12 tiles, PDL on the tiled
# kernel), with the timelines.
BUDGET=570 OUT=$OUT bash tools/device_suite.sh build-dev env tests bench python pybench fuzz sanitizer timeline
