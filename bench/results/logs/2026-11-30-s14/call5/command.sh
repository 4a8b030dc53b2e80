#!/usr/bin/env bash
# s14 call 5: the whole suite at 1be066f (the warp-MMA dispatch rules): GPU/unit/API tests, the
# benchmark on every DeepSeek shape (latest.jsonl), paths, quantiser, pytest, the Python bench, the
# fuzzer and the sanitizers.
BUDGET=570 OUT=$OUT bash tools/device_suite.sh build-dev env tests bench python pybench fuzz sanitizer
