import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, xs: list[torch.Tensor]) -> torch.Tensor:
        out = torch.zeros_like(xs[0])
        for x in xs:
            out = out + x
        return out


class ModelNew(nn.Module):
    def forward(self, xs: list[torch.Tensor]) -> torch.Tensor:
        import kernel_gen_ops
        return kernel_gen_ops.list_sum(xs)
