"""AscendKernelGen data plane: specs, artifact store, BenchRun harness, generation, training, CoT builds."""

__version__ = "0.1.0"
