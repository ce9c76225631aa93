"""CPU stand-in for torch_npu.contrib (see torch_npu/__init__.py)."""
