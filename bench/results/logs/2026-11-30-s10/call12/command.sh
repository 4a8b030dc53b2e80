# s10 call 12: bench/probes/wgmma_rate with the wait mode fixed (its wgmmas were deleted by ptxas in
# call 11) and the TMA-fed ring modes; compute-sanitizer racecheck on a short run of the probe.
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 60 build-dev/bench/wgmma_rate 2048
timeout 120 compute-sanitizer --tool racecheck build-dev/bench/wgmma_rate 16 2>&1 | tail -n 3
