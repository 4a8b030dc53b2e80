#!/usr/bin/env bash
# s22 call 15 (bench/probes/decode_loop from the working tree): the math loop alone again, with four
# more promotions: `before` (a k-block's scales loaded just before the next issue), `ahead` (a turn early), `wide` (each thread's a_scales contiguous, read by 16-byte loads) and `regs` (no
# scale loads at all: the bound on what any scale layout can gain).
set -u
rm -rf build-dev && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R
timeout 60 build-dev/bench/decode_loop > $R/decode_loop.txt 2>&1; echo "decode_loop rc=$?" >> $R/decode_loop.txt
cat $R/decode_loop.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
