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
    shape = tuple(_cell(param, 'shape'))
    dtype = _dtype(param)
    x = torch.randn(shape, dtype=dtype, device=device)
    y = torch.randn(shape, dtype=dtype, device=device)
    return (x, y, float(_cell(param, 'alpha')))


def get_init_inputs(param, device=None):
    return []
