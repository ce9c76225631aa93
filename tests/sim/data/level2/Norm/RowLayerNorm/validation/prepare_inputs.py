import torch


def get_inputs(param, device=None):
    shape = [int(d) for d in param["shape"].split("x")]
    hidden = shape[-1]
    return (torch.randn(*shape, dtype=torch.float32, device=device) * 3 + 1,
            torch.randn(hidden, dtype=torch.float32, device=device),
            torch.randn(hidden, dtype=torch.float32, device=device))


def get_init_inputs(param, device=None):
    return [float(param["epsilon"])]
