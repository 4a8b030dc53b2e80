# s9 call 4: the tiled clusters as configuration (uncommitted tree on 4502615): tiled GPU tests, a
# short fuzz with forced tiled configs, then every tiled width x cluster on six shapes.
R=$OUT/r; mkdir -p $R; V=build-dev
timeout 200 $V/tests/blockfp8_gpu_tests --gtest_filter='Tiled*' > $R/tests_tiled.log 2>&1; echo "tiled tests rc=$?" >> $R/summary.txt
timeout 100 $V/tests/blockfp8_fuzz --cases 600 --max-seconds 80 > $R/fuzz.log 2>&1; echo "fuzz rc=$? $(tail -n 2 $R/fuzz.log | tr '\n' ' ')" >> $R/summary.txt
t0=$SECONDS
OUT=$R bash tools/tiled_sweep.sh $V/bench/blockfp8-bench 2112,7168 7168,16384 9216,7168 24576,1536 36864,7168 4096,7168 >> $R/summary.txt 2>&1
echo "sweep took $((SECONDS - t0)) s" >> $R/summary.txt
cat $R/summary.txt; grep -h "FAIL" $R/tests_tiled.log | head
python3 tools/tiled_sweep_report.py $R/sweep_*.jsonl | tail -5
tar -C $OUT -czf $OUT/all.tgz r
