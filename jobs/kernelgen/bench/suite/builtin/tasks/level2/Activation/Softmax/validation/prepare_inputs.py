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
    shape = tuple(_cell(param, 'input_shape'))
    x = torch.randn(shape, dtype=_dtype(param), device=device) * 3
    return (x,)


def get_init_inputs(param, device=None):
    return []


def _tolerance_factor(param):
    return 1.0


# Per-dtype relative tolerance, at least one ulp of the output dtype so a single rounding flip passes;
# absolute below 1, relative above.
_RTOL = {torch.float16: 2 ** -9, torch.bfloat16: 2 ** -7, torch.float32: 2 ** -11}


def custom_check_precision(param, outputs, outputs_new):
    if outputs_new.dtype != outputs.dtype or outputs_new.shape != outputs.shape:
        return 0, torch.full((1,), float('inf')), torch.full((1,), float('inf'))
    rtol = _RTOL[_dtype(param)] * _tolerance_factor(param)
    ref = outputs.to(torch.float32)
    out = outputs_new.to(torch.float32)
    abs_diff = torch.abs(ref - out)
    bound = rtol * torch.clamp(torch.abs(ref), min=1.0)
    finite_ok = bool(torch.equal(torch.isfinite(ref), torch.isfinite(out)))
    is_pass = 1 if finite_ok and not bool(torch.any(abs_diff > bound)) else 0
    rel_diff = abs_diff / (torch.abs(ref) + 1e-7)
    return is_pass, abs_diff, rel_diff
