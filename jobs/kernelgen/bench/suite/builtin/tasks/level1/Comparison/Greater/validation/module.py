import torch
import torch.nn as nn

try:  # registers the NPU device on Ascend hosts; absent on CPU-only machines and in the simulator
    import torch_npu  # noqa: F401
except ImportError:
    pass


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x1: torch.Tensor, x2: torch.Tensor):
        return torch.gt(x1, x2)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x1: torch.Tensor, x2: torch.Tensor):
        import kernel_gen_ops
        return kernel_gen_ops.greater(x1, x2)
