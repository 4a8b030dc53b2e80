# s10 call 6 (nvidia-h200-x2): scenarios of a CUDA graph captured on cuda:1 (diag_graph_cuda1.py).
D=bench/results/logs/2026-11-30-s10/call6
export BLOCKFP8_LIBRARY=$PWD/build-dev/libblockfp8.so PYTHONPATH=$PWD/python
for s in torch_add cur0_fast cur1_fast cur1_fast_nowarm cur0_op; do timeout 60 python3 $D/diag_graph_cuda1.py $s 2>&1 | grep -v Warning; done
echo "--- BLOCKFP8_PDL=0:"; BLOCKFP8_PDL=0 timeout 60 python3 $D/diag_graph_cuda1.py cur0_fast 2>&1 | grep -v Warning
echo "--- the test, BLOCKFP8_PDL=0:"; BLOCKFP8_PDL=0 timeout 120 python3 -m pytest -q -p no:cacheprovider tests/python/test_gpu.py -k second_device 2>&1 | tail -n 3
