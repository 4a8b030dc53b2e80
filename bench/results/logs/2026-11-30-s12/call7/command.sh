# s12 call 7: the warp-MMA kernel's SASS (r16 t8 ring 4, the primary shape's M <= 8 kernel), to read
# what its last 0.3 us (partials in shared memory -> thread 0's store) are made of. Library at 3ca0c94.
set -u
R=$OUT/r; mkdir -p $R
CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$CUOBJ -sass -fun '_ZN8blockfp86detail50_GLOBAL__N__8f319ab3_17_swapab_warpmma_cu_7e2e9bf921swapab_warpmma_kernelILi1ELi1ELi4ELb0EEEvNS1_6ParamsE' build-dev/libblockfp8.so > $R/sass_r16_t8_k4.txt 2>&1; echo "cuobjdump rc=$? lines=$(wc -l < $R/sass_r16_t8_k4.txt)"
[ -s $R/sass_r16_t8_k4.txt ] || $CUOBJ -sass build-dev/libblockfp8.so 2>&1 | grep -n "Function" | head -40 > $R/functions.txt
tar -C $OUT -czf $OUT/call7.tgz r
