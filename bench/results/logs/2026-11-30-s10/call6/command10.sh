# s10 call 10 (nvidia-h200-x2): the full Python suite with capture_gemms' explicit capture stream.
export BLOCKFP8_LIBRARY=$PWD/build-dev/libblockfp8.so PYTHONPATH=$PWD/python; nvidia-smi -L
timeout 200 python3 -m pytest tests/python -q -s -p no:cacheprovider -rs 2>&1 | tail -n 8
timeout 60 python3 -m pytest tests/python/test_gpu.py -v -p no:cacheprovider -k "second_device or split_over" 2>&1 | grep -E "PASSED|FAILED|SKIPPED"
