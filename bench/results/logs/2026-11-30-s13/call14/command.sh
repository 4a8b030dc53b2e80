# s13 call 14: the tiled kernel's own timeline (new marks, timeline build only): split 8 at M = 128
# (2112x7168), unsplit pairs at M = 128 (7168x2048), and many tiles a CTA (2112x7168 M = 4096).
set -u
TL=build-dev/bench/decode_timeline
for a in "2112 7168 128" "7168 2048 128" "2112 7168 4096" "576 7168 128"; do timeout 60 $TL $a; echo "rc=$?"; done
