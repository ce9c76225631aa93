"""CPU-only stand-in for torch_npu, used only when no real torch_npu (or backend shim) is importable.

It exists so task modules that `import torch_npu` load on a machine without an NPU; kernels then run on
whatever device the backend's RuntimeEnv names (the simulator backend uses "cpu").
"""
import types as _types

__version__ = "0.0.0+kernelgen-cpu-shim"


def _noop(*_a, **_k):
    return None


npu = _types.SimpleNamespace(synchronize=_noop, is_available=lambda: False, device_count=lambda: 0,
                             set_device=_noop, manual_seed=_noop, manual_seed_all=_noop)
