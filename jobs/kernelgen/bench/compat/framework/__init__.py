"""Compatibility package: NPUKernelBench task checkers import `framework.utils.check_precision`."""
