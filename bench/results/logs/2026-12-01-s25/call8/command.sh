#!/usr/bin/env bash
# s25 call 8. The rest of the suite at 100dbde (kernels as a702d19; the dispatcher's tiled rules below
# 128 tokens and the bf16a row-major scales there): the fuzzer (random shapes, forced configurations and
# the dispatcher) and the Python GPU tests (ops, CUDA graphs, torch.compile, the vLLM entry point).
set -u
rm -rf build-dev && tar -xJf build-carry/dev.tar.xz
FUZZ_SECONDS=40 BUDGET=240 OUT=$OUT bash tools/device_suite.sh build-dev env fuzz python
