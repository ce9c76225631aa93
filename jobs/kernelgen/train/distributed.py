"""Devices and process groups: CPU, CUDA, or Ascend NPU (torch_npu + hccl); torchrun for several processes.

The operator runs a multi-node TrainRun as an Indexed Job: each pod gets ``NNODES``, ``NPROC_PER_NODE``,
``MASTER_ADDR`` (pod 0 of the Job, through its headless Service), ``MASTER_PORT`` and ``JOB_COMPLETION_INDEX``
(used as the node rank). The pod entrypoint (``kernelgen train entrypoint``) re-executes itself under
``torchrun`` with those values when more than one process is needed; inside torchrun, ``RANK``,
``LOCAL_RANK`` and ``WORLD_SIZE`` are set and the HF Trainer (accelerate) creates the process group.

The NPU path is written against torch_npu's documented API (``import torch_npu`` registers device ``npu``
and the ``hccl`` backend) but has not run on Ascend hardware: no NPU is available to this project's CI.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Topology:
    nnodes: int
    nproc_per_node: int
    node_rank: int
    master_addr: str
    master_port: int

    @property
    def world_size(self) -> int:
        return self.nnodes * self.nproc_per_node


def accelerator() -> str:
    """'npu', 'cuda' or 'cpu' (KERNELGEN_DEVICE overrides, e.g. to force cpu in tests)."""
    forced = os.environ.get("KERNELGEN_DEVICE")
    if forced:
        return forced
    if importlib.util.find_spec("torch_npu") is not None:
        import torch
        import torch_npu  # noqa: F401  registers torch.npu and the hccl backend

        if torch.npu.is_available():
            return "npu"
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def backend(device: str) -> str:
    return {"npu": "hccl", "cuda": "nccl"}.get(device, "gloo")


def local_device_count(device: str) -> int:
    import torch

    if device == "npu":
        return torch.npu.device_count()
    if device == "cuda":
        return torch.cuda.device_count()
    return 1


def topology(env: dict[str, str] | None = None, device: str | None = None) -> Topology:
    """What the operator asked for (defaults: one node, one process per local accelerator)."""
    env = dict(os.environ if env is None else env)
    nproc = env.get("NPROC_PER_NODE")
    return Topology(
        nnodes=int(env.get("NNODES", "1")),
        nproc_per_node=int(nproc) if nproc else local_device_count(device or accelerator()),
        node_rank=int(env.get("NODE_RANK", env.get("JOB_COMPLETION_INDEX", "0"))),
        master_addr=env.get("MASTER_ADDR", "127.0.0.1"),
        master_port=int(env.get("MASTER_PORT", "29500")),
    )


def under_torchrun(env: dict[str, str] | None = None) -> bool:
    env = os.environ if env is None else env
    return "LOCAL_RANK" in env and "WORLD_SIZE" in env


def world_size() -> int:
    return int(os.environ.get("WORLD_SIZE", "1"))


def torchrun_argv(topo: Topology, program: list[str]) -> list[str]:
    """The torchrun command line that starts this node's share of the processes running `program`."""
    argv = [sys.executable, "-m", "torch.distributed.run", f"--nnodes={topo.nnodes}",
            f"--nproc_per_node={topo.nproc_per_node}", f"--node_rank={topo.node_rank}",
            f"--master_addr={topo.master_addr}", f"--master_port={topo.master_port}"]
    if topo.nnodes == 1:
        argv = [sys.executable, "-m", "torch.distributed.run", "--standalone",
                f"--nproc_per_node={topo.nproc_per_node}"]
    return argv + program


CONFIG_DIR = Path(__file__).parent / "configs"


def accelerate_config(env: dict[str, str] | None = None) -> Path | None:
    """The accelerate config named by KERNELGEN_ACCELERATE_CONFIG (a path, or the name of a bundled config)."""
    value = (os.environ if env is None else env).get("KERNELGEN_ACCELERATE_CONFIG")
    if not value:
        return None
    bundled = CONFIG_DIR / f"{value}.yaml"
    return bundled if bundled.is_file() else Path(value)


def launcher_argv(topo: Topology, program: list[str], config: Path | None = None) -> list[str]:
    """torchrun, or `accelerate launch` with `config` (FSDP), for this node's processes."""
    if config is None:
        return torchrun_argv(topo, program)
    return [sys.executable, "-m", "accelerate.commands.launch", f"--config_file={config}",
            f"--num_machines={topo.nnodes}", f"--machine_rank={topo.node_rank}",
            f"--num_processes={topo.world_size}", f"--main_process_ip={topo.master_addr}",
            f"--main_process_port={topo.master_port}", *program]


def barrier() -> None:
    import torch.distributed as dist

    if dist.is_available() and dist.is_initialized():
        dist.barrier()


def is_local_main() -> bool:
    return int(os.environ.get("LOCAL_RANK", "0")) == 0


def is_main() -> bool:
    return int(os.environ.get("RANK", "0")) == 0
