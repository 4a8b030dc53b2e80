#!/usr/bin/env bash
# s21 call 5 (build-dev/COMMIT): is the 32/64-token decode stream capped by L2 -> SM traffic (weight from
# DRAM + tokens from L2)? ncu (cache flushed before each kernel: cold) of the TMA decode kernel on
# 7168x16384 at M = 8, 32 and 64 and of the floor kernel: L2 and DRAM throughput. Timelines of 2112x7168
# at M = 16 and 32 (PDL off).
set -u
rm -rf build-dev build-dev-x && tar -xJf build-carry/dev.tar.xz
R=$OUT/run; mkdir -p $R; S=$R/summary.txt
B=build-dev/bench/blockfp8-bench
MET=gpu__time_duration.sum,dram__bytes_read.sum.per_second,lts__t_bytes.sum.per_second,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__m_xbar2l1tex_read_bytes.sum.per_second,lts__t_sectors_srcunit_tex.sum,dram__bytes_read.sum,sm__cycles_elapsed.avg.per_second
for m in 8 32 64; do
  timeout 100 ncu --kernel-name regex:swapab_splitk --launch-skip 3 --launch-count 1 --section SpeedOfLight \
    --section MemoryWorkloadAnalysis --metrics $MET \
    $B --shape 7168,16384 --m $m --no-floor --no-cublaslt --no-bf16a --no-constw --no-check --replays 2 > $R/ncu_m$m.txt 2>&1
  echo "ncu m=$m rc=$?" >> $S
done
timeout 100 ncu --kernel-name regex:stream_ldg --launch-skip 3 --launch-count 1 --section SpeedOfLight \
  --section MemoryWorkloadAnalysis --metrics $MET \
  $B --shape 7168,16384 --m 8 --no-cublaslt --no-bf16a --no-constw --no-check --replays 2 > $R/ncu_floor.txt 2>&1
echo "ncu floor rc=$?" >> $S
for m in 16 32; do
  BLOCKFP8_PDL=0 timeout 30 build-dev/bench/decode_timeline 2112 7168 $m > $R/tl_2112_m$m.txt 2>&1
  echo "timeline 2112 m=$m rc=$?" >> $S
done
cat $S
for f in $R/*.txt; do [ $(stat -c %s $f) -gt 30000 ] && gzip -9 -n $f; done
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
