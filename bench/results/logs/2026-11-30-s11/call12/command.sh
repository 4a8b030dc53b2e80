# s11 call 12: where the warp-MMA kernel's time goes at M = 1 (decode_timeline, -DBLOCKFP8_TIMELINE=ON
# build), with the TMA kernel's marks on 576x7168 as a check that the shared timeline header reads them.
set -u
R=$OUT/r; mkdir -p $R; T=build-dev/bench/decode_timeline
{
  for a in "2112 7168 1" "2112 7168 8" "2112 7168 1 bf16a" "4096 7168 1" "3072 1536 1" "576 7168 1"; do
    timeout 30 $T $a; echo
  done
  BLOCKFP8_PDL=0 timeout 30 $T 2112 7168 1
} > $R/timeline.log 2>&1
echo "rc=$?"; grep -c "^decode_timeline" $R/timeline.log
