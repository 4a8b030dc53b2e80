#!/usr/bin/env bash
# s37 call 6. c5 = bc3c4cd's build (main's library since; the docs commit after it changed no code).
# The Python GPU tests against it.
set -u
trap 'tar -C $OUT -czf $OUT/run.tgz run && rm -rf $OUT/run' EXIT
rm -rf c5 && tar -xJf build-carry/s37c5.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
BLOCKFP8_LIBRARY=$PWD/c5/libblockfp8.so timeout 100 python3 -m pytest tests/python/test_gpu.py -q -p no:cacheprovider -x > $R/pytest.log 2>&1
echo "pytest rc=$? $(tail -1 $R/pytest.log) at $SECONDS s" >> $S
cat $S
