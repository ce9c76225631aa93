import torch


def get_inputs(param, device=None):
    shape = [int(d) for d in param["shape"].split("x")]
    return (torch.randn(*shape, dtype=torch.float32, device=device),)


def get_init_inputs(param, device=None):
    return []
