# s9 call 8 at c2e5932: the refitted tiled dispatcher against main (4502615), interleaved; then the
# full device suite (tests, bench, pytest, fuzz, sanitizers).
R=$OUT/r; mkdir -p $R
T="--shape 7168,16384 --shape 9216,7168 --shape 36864,7168 --shape 24576,1536 --shape 2112,7168 --shape 4096,7168 --m 128,384,512,640,1024,4096,8192 --no-cublaslt --no-floor"
t0=$SECONDS
OUT=$R bash tools/binary_ab.sh dispatch_vs_main build-dev/bench/blockfp8-bench build-dev/main/blockfp8-bench $T > /dev/null 2>&1
echo "A/B took $((SECONDS - t0)) s"; cat $R/dispatch_vs_main_ab.md
tar -C $OUT -czf $OUT/ab.tgz r; rm -rf $R
OUT=$OUT BUDGET=420 bash tools/device_suite.sh build-dev env tests bench python fuzz sanitizer
