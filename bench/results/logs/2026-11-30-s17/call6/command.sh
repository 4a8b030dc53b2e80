#!/usr/bin/env bash
# s17 call 6: the same tree as call 5. (1) The benchmark at M >= 256 with column-major a_scales
# (--a-scale-col-major: strides (1, M rounded up to 4), the layout blockfp8.quantize_1x128 now gives
# when asked for column-major and blockfp8_gemm_bf16a's workspace uses for the tiled kernel), cuBLASLt
# in the same run; (2) BLOCKFP8_TILED_SA_TMA on/off in one binary on that layout; (3) the Python tests
# (the quantiser's new column-major strides) and the Python bench; (4) racecheck of the tiled
# kernel's scale-layout tests (call 2's 80 s limit ran out before the end).
set -u
R=$OUT/run; mkdir -p $R
B=build-dev/bench/blockfp8-bench
export BLOCKFP8_COMMIT=$(cat build-dev/COMMIT)
t0=$SECONDS
timeout 230 $B --a-scale-col-major --m 256,512,1024,2048,4096,8192 --no-bf16a --commit $BLOCKFP8_COMMIT \
  --json $R/bench_col.jsonl > $R/bench_col.log 2>&1; echo "bench col rc=$? $((SECONDS - t0)) s" >> $R/summary.txt
OUT=$R/ab bash tools/env_ab.sh build-dev BLOCKFP8_TILED_SA_TMA --a-scale-col-major --shape 2112,7168 \
  --shape 4096,7168 --shape 7168,2048 --m 256,1024,4096 --no-cublaslt --no-floor > $R/ab.log 2>&1; echo "ab rc=$?" >> $R/summary.txt
export BLOCKFP8_LIBRARY=$PWD/build-dev/libblockfp8.so
timeout 80 python3 -m pytest tests/python -q -p no:cacheprovider > $R/pytest.log 2>&1; echo "pytest rc=$? $(tail -n 1 $R/pytest.log)" >> $R/summary.txt
PYTHONPATH=$PWD/python timeout 60 python3 -m blockfp8.bench --shape 2112,7168 --m 1,16,4096 --json $R/pybench.jsonl > $R/pybench.log 2>&1; echo "pybench rc=$? $(tail -n 1 $R/pybench.log)" >> $R/summary.txt
BLOCKFP8_TEST_TIMEOUT=150 timeout 160 compute-sanitizer --tool racecheck --error-exitcode 99 build-dev/tests/blockfp8_gpu_tests --gtest_filter='TiledTest.ScaleLayouts' > $R/racecheck_tiled.log 2>&1; echo "racecheck tiled rc=$? $(tail -n 1 $R/racecheck_tiled.log)" >> $R/summary.txt
cat $R/summary.txt
tar -C $OUT -czf $OUT/device-run.tgz run
