#!/usr/bin/env bash
# s22 call 11 (build-dev/COMMIT = 54ad5ec; bench/probes/decode_loop.cu built from the working tree):
# the decode kernel's math loop alone (operands resident, no stage hand-offs), one and two math
# warpgroups, 8/32/64 tokens; and the SASS of the 64-token two-warpgroup instances, aligned and
# straddling, for reading offline (this build machine has no disassembler).
set -u
rm -rf build-dev && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
timeout 60 build-dev/bench/decode_loop > $R/decode_loop.txt 2>&1; echo "decode_loop rc=$?" >> $S
timeout 60 build-dev/bench/decode_loop 16384 > $R/decode_loop_16k.txt 2>&1; echo "decode_loop 16k rc=$?" >> $S
cuobjdump -sass build-dev/libblockfp8.so > $R/all.sass 2>&1
for f in ILi64ELi2ELb0ELb0ELb0ELb0E ILi64ELi2ELb0ELb0ELb0ELb1E ILi64ELi2ELb0ELb0ELb1ELb0E; do
  awk -v pat="$f" '/Function : /{p = index($0, pat) > 0} p' $R/all.sass > $R/sass_$f.txt
  echo "sass $f: $(wc -l < $R/sass_$f.txt) lines" >> $S
done
rm -f $R/all.sass; gzip -9 -n $R/sass_*.txt
cat $S $R/decode_loop.txt $R/decode_loop_16k.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
