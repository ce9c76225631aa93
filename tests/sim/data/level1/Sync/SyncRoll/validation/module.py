import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, mode: int = 0):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.roll(x, -1)


class ModelNew(nn.Module):
    def __init__(self, mode: int = 0):
        super().__init__()
        self.mode = mode

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        import kernel_gen_ops
        return kernel_gen_ops.sync_roll(x, self.mode)
