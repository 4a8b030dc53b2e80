# s12 call 8: the full device suite at d18a963 (staggered K walks, early refills and the one-latency
# final sum in the warp-MMA kernel; split-K in the tiled kernel from 65 tokens), with the timelines.
BUDGET=570 OUT=$OUT bash tools/device_suite.sh build-dev env tests bench python pybench fuzz sanitizer timeline
