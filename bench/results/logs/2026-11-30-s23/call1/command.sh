#!/usr/bin/env bash
# s23 call 1 (bench/probes/decode_loop from the working tree): the math loop alone, with the new mode
# tokens_a (the token tile as wgmma's A, the weight as its B: two a_scales a thread a k-block).
set -u
R=$OUT/run; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv > $R/gpu.txt 2>&1
timeout 120 build-carry/decode_loop > $R/decode_loop.txt 2>&1; echo "decode_loop rc=$?" >> $R/decode_loop.txt
timeout 60 build-carry/decode_loop 1024 > $R/decode_loop_1024.txt 2>&1
cat $R/decode_loop.txt; cat $R/decode_loop_1024.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
