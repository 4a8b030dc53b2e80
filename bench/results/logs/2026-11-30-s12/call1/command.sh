# s12 call 1: (a) the floor kernel's own timeline (marks: entry, thread 0's first pass landed, exit)
# beside the warp-MMA kernel's on 2112x7168; (b) staggered K walks in the warp-MMA kernel
# (BLOCKFP8_WARPMMA_ROTATE=1, the strips start at different k-blocks) against all strips in lockstep
# (=0), at M = 1-32, dispatcher and forced wide-token configs; (c) the tenth session's one-token-tile
# split (wip/tiled-split1-rebased = main + 6c6058d) against main at M = 72-128, its TiledTest first.
set -u
R=$OUT/r; mkdir -p $R; T=build-dev/tests/blockfp8_gpu_tests; B=build-dev/bench/blockfp8-bench; TL=build-dev/bench/decode_timeline
timeout 150 $T --gtest_filter='GemmTest.ForcedWarpMma*:FusedTest.*:ReliabilityTest.Determinism:GemmTest.DispatcherShapes' > $R/gtest.log 2>&1; echo "gtest rc=$?"; tail -2 $R/gtest.log
{
  timeout 60 $TL 2112 7168 floor; echo
  timeout 30 $TL 2112 7168 1; echo
  timeout 30 $TL 2112 7168 8; echo
  BLOCKFP8_WARPMMA_ROTATE=0 timeout 30 $TL 2112 7168 8; echo
  BLOCKFP8_PDL=0 timeout 60 $TL 2112 7168 floor; echo
  BLOCKFP8_PDL=0 timeout 30 $TL 2112 7168 1
} > $R/timeline.log 2>&1; echo "timeline rc=$?"
C=""; for c in r16_t16_s1_w2_k4 r32_t16_s2_w2_k4 r32_t32_s2_w2_k2 r16_t8_s1_w2_k4; do C="$C --config warpmma_$c"; done
AB_PATHS=1 OUT=$R/rot bash tools/env_ab.sh build-dev BLOCKFP8_WARPMMA_ROTATE --shape 2112,7168 --shape 4096,512 --m 1,4,8,16,32 --no-floor --no-cublaslt $C --settle-ms 50 > /dev/null; echo "rot ab done"
timeout 200 build-dev/split1/blockfp8_gpu_tests --gtest_filter='TiledTest.*' > $R/split1_gtest.log 2>&1; echo "split1 gtest rc=$?"; tail -1 $R/split1_gtest.log
OUT=$R/split1 bash tools/binary_ab.sh split1 build-dev/split1/blockfp8-bench $B --shape 4608,7168 --shape 7168,16384 --shape 7168,8192 --shape 7168,18432 --shape 7168,9216 --shape 7168,2048 --shape 12288,7168 --m 72,96,128 --no-cublaslt --no-floor --settle-ms 100 > /dev/null; echo "split1 ab done"
tar -C $OUT -czf $OUT/call1.tgz r
