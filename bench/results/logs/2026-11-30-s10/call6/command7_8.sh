# s10 call 7 (nvidia-h200-x2): is the failure order or PDL?
export BLOCKFP8_LIBRARY=$PWD/build-dev/libblockfp8.so PYTHONPATH=$PWD/python; P="python3 -m pytest -q -p no:cacheprovider"; echo "1 isolated:"; timeout 60 $P tests/python/test_gpu.py -k second_device 2>&1 | tail -n 1; echo "2 test_gpu.py:"; timeout 90 $P tests/python/test_gpu.py 2>&1 | tail -n 2; echo "3 full:"; timeout 150 $P tests/python 2>&1 | tail -n 2; echo "4 full PDL=0:"; BLOCKFP8_PDL=0 timeout 150 $P tests/python 2>&1 | tail -n 2
# Output: 1: 3 passed. 2, 3, 4: FAILED test_cuda_graph_captured_on_second_device (1 failed, 92 / 449 / 449 passed).
# s10 call 8: which earlier test?
P="python3 -m pytest -q -p no:cacheprovider tests/python/test_gpu.py"; for k in "second_device or fullgraph" "second_device or reduce_overhead" "second_device or capture_and_replay" "second_device or current_stream or split_over" "not compile"; do echo "[$k] $(timeout 90 $P -k "$k" 2>&1 | tail -n 1)"; done
# Output: only "second_device or capture_and_replay" and "not compile" failed (1 failed each); the others passed.
