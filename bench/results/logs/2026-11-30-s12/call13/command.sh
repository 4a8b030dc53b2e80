# s12 call 13: what one timeline mark costs (two marks back to back after thread 0's first sum), to
# read call 12's tail intervals (each includes one mark).
set -u
R=$OUT/r; mkdir -p $R; TL=build-dev/bench/decode_timeline
{ timeout 30 $TL 2112 7168 1; echo; BLOCKFP8_PDL=0 timeout 30 $TL 2112 7168 1; } > $R/timeline.log 2>&1; echo "timeline rc=$?"
cat $R/timeline.log | grep -E "decode_timeline|partials|first sum|back to back|exit|math done .all"
tar -C $OUT -czf $OUT/call13.tgz r
