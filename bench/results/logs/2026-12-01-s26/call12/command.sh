#!/usr/bin/env bash
# s26 call 12 (build-dev = 8a48202's library; the tree's python/ with the Python bench settling per point):
# the Python bench on the two points where the C++ bench re-timed cuBLASLt, to check the new path runs.
set -u
rm -rf build-dev && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R
export BLOCKFP8_LIBRARY=$PWD/build-dev/libblockfp8.so PYTHONPATH=$PWD/python
timeout 150 python3 -m blockfp8.bench --shape 7168,4608 --shape 7168,2304 --m 256,512 --json $R/pybench.jsonl > $R/pybench.md 2> $R/pybench.err
echo "rc=$?" >> $R/pybench.md
python3 - $R/pybench.jsonl >> $R/pybench.md <<'P'
import json, sys
for r in map(json.loads, open(sys.argv[1])):
    print(r.get('N'), r.get('K'), r.get('M'), r.get('backend'), r.get('config'), r.get('cold_us'), r.get('settled'), r.get('note'), r.get('error'))
P
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
