"""CPU stand-in for `torch_npu`, shipped with the ascsim simulator backend.

Task code does `import torch_npu` and `from torch_npu.contrib import transfer_to_npu`; with the simulator every
tensor stays on the CPU and `kernel_gen_ops` runs kernels in ascsim. This is not an NPU emulation.
"""
import types

import torch

__version__ = "0.0.0+ascsim"


def _false(*_a, **_k):
    return False


def _noop(*_a, **_k):
    return None


npu = types.SimpleNamespace(
    is_available=_false, device_count=lambda: 0, synchronize=_noop, set_device=_noop, current_device=lambda: 0,
    empty_cache=_noop, manual_seed=_noop, manual_seed_all=_noop,
)
if not hasattr(torch, "npu"):
    torch.npu = npu
