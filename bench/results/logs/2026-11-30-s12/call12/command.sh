# s12 call 12: one more mark in the warp-MMA kernel's final sum (thread 0's first sum computed, before
# its store): is the 0.3 us between "partials in shared memory" and "exit" the loads and adds, or the store?
set -u
R=$OUT/r; mkdir -p $R; TL=build-dev/bench/decode_timeline
{ timeout 30 $TL 2112 7168 1; echo; BLOCKFP8_PDL=0 timeout 30 $TL 2112 7168 1; echo; timeout 30 $TL 4096 7168 1; } > $R/timeline.log 2>&1; echo "timeline rc=$?"
cat $R/timeline.log | grep -E "decode_timeline|partials|first sum|exit|math done .all"
tar -C $OUT -czf $OUT/call12.tgz r
