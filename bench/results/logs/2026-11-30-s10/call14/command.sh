# s10 call 14: the committed (de-duplicated) probe again, with the ring's depth and stage size varied.
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 90 build-dev/bench/wgmma_rate 2048
