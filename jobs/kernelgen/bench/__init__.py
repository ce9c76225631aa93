"""BenchRun harness: NPUKernelBench-layout tasks, candidates, sandboxed evaluation, records, metrics, reports.

See README.md in this directory; the shared data contract is `kernelgen.bench.model`.
"""
