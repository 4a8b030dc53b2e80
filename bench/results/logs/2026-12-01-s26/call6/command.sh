#!/usr/bin/env bash
# s26 call 6 (build-dev = 2fd704c). For the next session: ncu's per-instruction warp samples of the tiled
# kernel's loop after the descriptors moved to uniform registers (the same point as call 1: 2112x16384,
# M = 1024, 192-row single CTAs) and of the decode kernel on the primary shape at M = 32 (32-token tile,
# split 3). Read with tools/ncu_sass_stalls.py.
set -u
rm -rf build-dev && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
B=build-dev/bench/blockfp8-bench
Q="--no-cublaslt --no-bf16a --no-constw --no-check --no-floor --replays 2"
timeout 150 ncu --kernel-name-base demangled -k 'regex:tiled_gemm_kernel<\(int\)192, \(bool\)0>' --launch-skip 2 --launch-count 1 \
  --section SourceCounters --section WarpStateStats --section SpeedOfLight --warp-sampling-interval 2 \
  -o $R/ncu_tiled $B --shape 2112,16384 --m 1024 --config tiled_t128_r192_p4_c1x1 $Q > $R/ncu_tiled_run.log 2>&1
echo "ncu tiled rc=$?" >> $S
timeout 150 ncu --kernel-name-base demangled -k 'regex:swapab_splitk_kernel' --launch-skip 3 --launch-count 1 \
  --section SourceCounters --section WarpStateStats --section SpeedOfLight --warp-sampling-interval 0 \
  -o $R/ncu_decode $B --shape 2112,7168 --m 32 $Q > $R/ncu_decode_run.log 2>&1
echo "ncu decode rc=$?" >> $S
for w in tiled decode; do
  ncu --import $R/ncu_$w.ncu-rep --page details > $R/ncu_${w}_details.txt 2>&1
  ncu --import $R/ncu_$w.ncu-rep --page source --print-source sass --csv > $R/ncu_${w}_sass.csv 2>&1
  rm -f $R/ncu_$w.ncu-rep
  python3 tools/ncu_sass_stalls.py $R/ncu_${w}_sass.csv --top 3 > $R/ncu_${w}_stalls.txt 2>&1
  head -1 $R/ncu_${w}_stalls.txt >> $S
done
gzip -9 -n $R/*.csv
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
