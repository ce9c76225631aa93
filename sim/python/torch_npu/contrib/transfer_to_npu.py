"""No-op under the simulator: tensors already live on the CPU, where ascsim runs the kernels."""
