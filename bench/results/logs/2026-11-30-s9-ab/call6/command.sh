# s9 call 6: the refitted tiled dispatcher (single CTAs past one token tile, F = 80) against every
# width, single CTAs and pairs along N, on all 31 benchmark shapes, M = 128-4096.
R=$OUT/r; mkdir -p $R; B=build-dev/bench/blockfp8-bench
SHAPES="2112,7168 576,7168 24576,1536 32768,512 7168,16384 4096,7168 36864,7168 7168,18432 24576,7168 12288,7168 7168,2048 4608,7168 12288,1536 16384,512 7168,8192 18432,7168 7168,9216 6144,7168 7168,1024 6144,1536 8192,512 7168,4096 9216,7168 7168,4608 3072,7168 7168,512 3072,1536 4096,512 7168,2304 1536,7168 7168,256"
t0=$SECONDS
SWEEP_M=128,256,384,512,1024,2048,4096 SWEEP_CLUSTERS="1x1 1x2" OUT=$R bash tools/tiled_sweep.sh $B $SHAPES
echo "sweep took $((SECONDS - t0)) s"
python3 tools/tiled_sweep_report.py $R/sweep_*.jsonl | tail -3
tar -C $OUT -czf $OUT/all.tgz r
