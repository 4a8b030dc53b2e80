"""s10 call 6: why a CUDA graph captured on cuda:1 came out empty (test_cuda_graph_captured_on_second_device,
1f10bb4 on nvidia-h200-x2). One scenario per process: python3 diag_graph_cuda1.py SCENARIO."""
import os, sys
import torch
sys.path.insert(0, "tests/python")
import blockfp8
from conftest import random_inputs, reference, rel_err

m, n, k = 8, 2112, 7168
sc = sys.argv[1]


def report(tag, c, ref):
    err = rel_err(c, ref)
    print(f"{sc:>14} {tag:<28} rel_err={err:.3e} nan={bool(c.isnan().any())}", flush=True)


def capture(dev, fn, warm=True):
    s = torch.cuda.Stream(device=dev)
    if warm:
        s.wait_stream(torch.cuda.current_stream(dev))
        with torch.cuda.stream(s):
            fn()
        torch.cuda.current_stream(dev).wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        print(f"{sc:>14} in capture: current_device={torch.cuda.current_device()} "
              f"raw_stream(1)={torch._C._cuda_getCurrentRawStream(1):#x} "
              f"current_stream(1)={torch.cuda.current_stream(1).cuda_stream:#x} "
              f"capturing={torch.cuda.is_current_stream_capturing()}", flush=True)
        c = fn()
    return g, c


if sc == "torch_add":  # sanity: a torch op captured on cuda:1 with cuda:0 current outside
    torch.cuda.set_device(0)
    x = torch.randn(1000, device="cuda:1")
    with torch.cuda.device(1):
        g, c = capture(1, lambda: x * 2)
    x.normal_(); c.fill_(float("nan")); g.replay(); torch.cuda.synchronize(1)
    print(sc, "torch op replay ok:", bool(torch.equal(c, x * 2)))
    sys.exit()

if sc.startswith("after_"):  # s10 call 9: what test_cuda_graph_capture_and_replay leaves behind
    torch.cuda.set_device(0)
    a0, s0, b0, t0 = random_inputs(m, n, k, "cuda:0", seed=5)
    x0 = torch.randn(1000, device="cuda:0")
    step = sc[len("after_"):]
    f0 = {"capture0": lambda: blockfp8.gemm(a0, s0, b0, t0), "eager0": lambda: blockfp8.gemm(a0, s0, b0, t0),
          "torchcap0": lambda: x0 * 2}[step]
    if step == "eager0":
        f0()
    else:
        g0, c0 = capture(0, f0)
        g0.replay()
    torch.cuda.synchronize(0)
    sc = "cur0_fast"

dev = 1
if sc.startswith("cur1"):
    torch.cuda.set_device(1)  # cuda:1 current throughout; cuda:0 never touched
else:
    torch.cuda.set_device(0)
a, a_scale, b, b_scale = random_inputs(m, n, k, "cuda:1", seed=14)
fn = (lambda: torch.ops.blockfp8.gemm(a, a_scale, b, b_scale, torch.bfloat16)) if sc.endswith("op") else \
     (lambda: blockfp8.gemm(a, a_scale, b, b_scale))
warm = not sc.endswith("nowarm")
if sc.startswith("cur1"):
    g, c = capture(1, fn, warm)
else:
    with torch.cuda.device(1):
        g, c = capture(1, fn, warm)
torch.cuda.synchronize(1)
report("after capture (no replay)", c, reference(a, a_scale, b, b_scale))
c.fill_(float("nan"))
g.replay(); torch.cuda.synchronize(1)
report("after replay", c, reference(a, a_scale, b, b_scale))
