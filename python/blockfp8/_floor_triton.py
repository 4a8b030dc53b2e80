"""The Triton streaming-read floor of python -m blockfp8.bench (imported only where triton imports).

A yardstick for "how fast can N*K weight bytes come out of HBM": every program sweeps the buffer
grid-stride in BLOCK-word tiles, XOR-folding what it loads so nothing is dead code, and writes one
word. The words are int32 and BLOCK spans num_warps * 32 threads several times over, so each thread
issues several 16-byte loads per tile before using any (the memory-level parallelism HBM needs);
the loads are .cg (cached in L2 only), as the bytes are read once (.cg cannot be combined with an
evict_first hint: ptxas refuses it). bench/floor.cu stays the
reference (its TMA bulk variant reaches ~4.6 TB/s on an H200); this one should land near its
plain-load variants (~4.2 TB/s).
"""
import triton
import triton.language as tl

# (BLOCK words per tile, num_warps, programs per SM): a few shapes of the same sweep; the bench keeps
# the fastest, as bench/floor.cu does with its variants.
CONFIGS = [(16384, 8, 2), (8192, 8, 4), (8192, 4, 4), (4096, 4, 8)]
_MAX_WORDS = 2 ** 31 - 1  # offsets are int32


@triton.jit
def _stream_read(src, sink, n_words, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0) * BLOCK
    lanes = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    # n_words is a multiple of 16 for every weight (K % 128 == 0), which triton specialises on: the
    # mask is then constant over each 4-word vector and the loads stay 16 bytes wide.
    for start in range(pid * BLOCK, n_words, step):
        offs = start + lanes
        acc ^= tl.load(src + offs, mask=offs < n_words, other=0, cache_modifier=".cg")
    tl.store(sink + pid, tl.xor_sum(acc, axis=0))


def label(cfg):
    block, warps, per_sm = cfg
    return f"triton_b{block}_w{warps}_p{per_sm}"


def programs(cfg, sm_count):
    return cfg[2] * sm_count


def launch(cfg, words, sink, sm_count):
    """Read every word of `words` (a flat int32 CUDA tensor) once; `sink` needs programs() words."""
    block, warps, _ = cfg
    n = words.numel()
    grid = programs(cfg, sm_count)
    if n + grid * block > _MAX_WORDS:
        raise ValueError(f"{n} words is past the int32 offsets of this kernel")
    _stream_read[(grid,)](words, sink, n, BLOCK=block, num_warps=warps)
