# s10 call 11: bench/probes/wgmma_rate, the tiled kernel's k-block with nothing but tensor work, and
# each piece of its loop added back.
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 60 build-dev/bench/wgmma_rate 2048
timeout 60 build-dev/bench/wgmma_rate 8192 | tail -n 14
