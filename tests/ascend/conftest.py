from .ascend_support import recorded, sample_suite  # noqa: F401 - fixtures for this directory
