# s12 call 3: where the warp-MMA kernel's last 0.45 us go (a mark after the partials reach shared
# memory) and what its warps stall on, beside the floor kernel (ncu: warp states, memory, speed of
# light; 2112x7168 at M = 1 and 8). Library: main + staggered K walks.
set -u
R=$OUT/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench; TL=build-dev/bench/decode_timeline
{ for m in 1 8; do timeout 30 $TL 2112 7168 $m; echo; done; BLOCKFP8_PDL=0 timeout 30 $TL 2112 7168 1; } > $R/timeline.log 2>&1; echo "timeline rc=$?"
NCU="ncu --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats --launch-skip 3 --launch-count 1"
for m in 1 8; do
  timeout 120 $NCU --kernel-name regex:swapab_warpmma $B --shape 2112,7168 --m $m --no-floor --no-cublaslt --no-bf16a --no-constw --no-check > $R/ncu_m$m.log 2>&1; echo "ncu m$m rc=$?"
done
timeout 120 $NCU --kernel-name regex:stream_ldg $B --shape 2112,7168 --m 1 --no-cublaslt --no-bf16a --no-constw --no-check > $R/ncu_floor.log 2>&1; echo "ncu floor rc=$?"
tar -C $OUT -czf $OUT/call3.tgz r
