import torch


def get_inputs(param, device=None):
    return (torch.randn(int(param["n"]), dtype=torch.float32, device=device),)


def get_init_inputs(param, device=None):
    return [int(param["mode"])]
