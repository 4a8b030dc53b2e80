# s10 call 9 (nvidia-h200-x2): what an earlier graph capture on cuda:0 does to a later capture on cuda:1.
D=bench/results/logs/2026-11-30-s10/call6
export BLOCKFP8_LIBRARY=$PWD/build-dev/libblockfp8.so PYTHONPATH=$PWD/python
for s in after_capture0 after_eager0 after_torchcap0; do echo "== $s"; timeout 60 python3 $D/diag_graph_cuda1.py $s 2>&1 | grep -v Warning | cut -c1-220; done
