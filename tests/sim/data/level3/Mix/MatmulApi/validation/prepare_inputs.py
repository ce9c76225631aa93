import ast

import torch


def _cell(param, key, default=None):
    """A CSV cell as a Python value: literals are parsed, bare words (dtype names, modes) stay strings."""
    value = param.get(key, default)
    if isinstance(value, str):
        try:
            return ast.literal_eval(value)
        except (ValueError, SyntaxError):
            return value.strip()
    return value


def _dtype(param):
    return getattr(torch, str(_cell(param, 'dtype', 'float16')))


def get_inputs(param, device=None):
    m, k, n = int(_cell(param, 'm')), int(_cell(param, 'k')), int(_cell(param, 'n'))
    dtype = _dtype(param)
    a = (torch.rand((m, k), device=device) * 2 - 1).to(dtype)
    b = (torch.rand((k, n), device=device) * 2 - 1).to(dtype)
    return (a, b)


def get_init_inputs(param, device=None):
    return []


def custom_check_precision(param, outputs, outputs_new):
    """Matmul family: rtol * max(1, |ref|) after casting to float32, looser for long reductions."""
    if outputs_new.dtype != outputs.dtype or outputs_new.shape != outputs.shape:
        return 0, torch.full((1,), float('inf')), torch.full((1,), float('inf'))
    rtol = 2 ** -8 if int(_cell(param, 'k')) < 2048 else 2 ** -7
    ref = outputs.to(torch.float32)
    out = outputs_new.to(torch.float32)
    abs_diff = torch.abs(ref - out)
    bound = rtol * torch.clamp(torch.abs(ref), min=1.0)
    finite_ok = bool(torch.isfinite(out).all())
    is_pass = 1 if finite_ok and not bool(torch.any(abs_diff > bound)) else 0
    return is_pass, abs_diff, abs_diff / (torch.abs(ref) + 1e-7)
