# s10 call 15: the probe's ring with the kernel's scale warp and scale reads (ring_sc); racecheck on a
# short run.
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 90 build-dev/bench/wgmma_rate 2048
timeout 120 compute-sanitizer --tool racecheck build-dev/bench/wgmma_rate 16 2>&1 | tail -n 1
