import torch


def get_inputs(param, device=None):
    dtype = {"float32": torch.float32, "float16": torch.float16}[param["dtype"]]
    return (torch.randn(int(param["n"]), dtype=torch.float32, device=device).to(dtype),)


def get_init_inputs(param, device=None):
    return [float(param["scale"]), float(param["shift"]), int(param["mode"]), bool(int(param["negate"]))]
