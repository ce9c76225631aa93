"""No-op: on a real stack this remaps cuda calls to npu; the CPU stand-in has nothing to remap."""
