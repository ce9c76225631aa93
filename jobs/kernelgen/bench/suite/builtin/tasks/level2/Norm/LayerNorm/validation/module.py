import torch
import torch.nn as nn

try:  # registers the NPU device on Ascend hosts; absent on CPU-only machines and in the simulator
    import torch_npu  # noqa: F401
except ImportError:
    pass


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, epsilon: float):
        y = torch.nn.functional.layer_norm(x.float(), (x.shape[-1],), gamma.float(), beta.float(), epsilon)
        return y.to(x.dtype)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, epsilon: float):
        import kernel_gen_ops
        return kernel_gen_ops.layer_norm(x, gamma, beta, epsilon)
