#!/usr/bin/env bash
# s27 call 18. Validation at the session's last commit: tools/device_suite.sh steps env, tests, python and
# sanitizer (memcheck, racecheck, synccheck on the quantiser's and the fused path's smokes).
set -u
rm -rf build-new && tar -xJf build-carry/s27c18.tar.xz
SANITIZER_FILTER='Quantize1x128.DivisionHardCases:Quantize1x128.LargeProblem:FusedTest.SanitizerSmoke' \
  BUDGET=200 OUT=$OUT bash tools/device_suite.sh build-new env tests python sanitizer > /dev/null 2>&1
cat $OUT/summary.txt
rm -rf $OUT/run
