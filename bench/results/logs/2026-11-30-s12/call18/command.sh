# s12 call 18: the final tree's GPU tests, unit and API tests, pytest and the fuzzer (after the ring-2
# rule and the walk's move into dispatch.h; call 8's suite ran the code before them).
FUZZ_SECONDS=40 BUDGET=200 OUT=$OUT bash tools/device_suite.sh build-dev env tests python fuzz
