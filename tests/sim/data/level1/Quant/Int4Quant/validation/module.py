import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor):
        q = torch.clamp(torch.round(x.float()), -8, 7).to(torch.int16)   # torch.round: ties to even
        packed = (q[..., 0::2] & 0xF) | ((q[..., 1::2] & 0xF) << 4)
        return packed.to(torch.uint8).view(torch.int8), q.to(torch.float16)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor):
        import kernel_gen_ops
        return tuple(kernel_gen_ops.int4_quant(x))
