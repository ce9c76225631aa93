"""`check_precision` with NPUKernelBench's default semantics (our own implementation)."""
from kernelgen.bench.compare import nkb_check_precision as check_precision  # noqa: F401
