#!/usr/bin/env bash
# s30 call 4. Is the producers' set-up after entry (tiled split kernel, PDL off: my_work 0.6 us,
# tile_at 0.45, first issue 0.39; call 1) a chain of constant-cache misses? tl1 = timeline build at
# 67a858e; tl2 = the same with every parameter field read at entry by the producer thread
# (wip/param-warm, both the tiled and the TMA decode kernel). PDL off and on, alternating, twice.
set -u
rm -rf tl1 tl2 && tar -xJf build-carry/s30c4.tar.xz
R=$OUT/run; mkdir -p $R
for rep in 1 2; do
  for pdl in 0 1; do
    for v in tl1 tl2; do
      for spec in "2112 7168 256" "7168 2304 256" "2112 7168 16" "2112 7168 128"; do
        BLOCKFP8_PDL=$pdl timeout 30 $v/decode_timeline $spec > $R/${v}_pdl${pdl}_$(echo $spec | tr ' ' 'x')_r$rep.txt 2>&1
      done
    done
  done
done
for f in $R/*_r1.txt; do echo "== $(basename $f)"; head -1 $f | sed 's/.*plan/plan/'; grep -E "^(entry|producer may load|preceding grid|first stage|TMA thread|math thread|thread 0|set-up|barriers init|producer set up|exit)" $f; done
echo "== per-call cold us"; for f in $R/*.txt; do echo "$(basename $f .txt) $(head -1 $f | grep -o 'cold [0-9.]* us')"; done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
