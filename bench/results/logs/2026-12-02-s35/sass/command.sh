#!/usr/bin/env bash
# s35, on the build machine: the tiled kernel's SASS in three builds, instance by instance (tools/sass_same.py,
# cuobjdump from Triton's wheel). 39fd206 = main before the wide tile (build/ at that commit); 5cb895f = the
# build measured in call 5 (c5, 1.02-1.07x 39fd206's time with the same 128-token configurations);
# c76abd4 = the fix (the epilogue's row and the scale producers' first row computed as 39fd206 did).
# The files were last written from fdd8174 (the review's mends), whose tiled SASS is c76abd4's in every instance.
R='tiled_gemm_kernelILi(\d+)ELb=tiled_gemm_kernelILi128ELi\1ELb'
python3 tools/sass_same.py OLD/tiled_gemm.cu.o NEW_c76abd4/tiled_gemm.cu.o --match tiled_gemm_kernel --rename "$R" > 39fd206-vs-c76abd4.txt
python3 tools/sass_same.py OLD/tiled_gemm.cu.o c5/libblockfp8.so --match tiled_gemm_kernel --rename "$R" > 39fd206-vs-5cb895f.txt
# The 256-token instances: the build measured in call 5 against main (their SASS moved with the fix).
python3 tools/sass_same.py c5/libblockfp8.so MAIN/tiled_gemm.cu.o --match 'tiled_gemm_kernelILi256' > wide-5cb895f-vs-main.txt
