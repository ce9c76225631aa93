"""The rendezvous of a multi-node TrainRun as the operator's Indexed Job starts it: two "nodes" (one CPU process
each, gloo) launched with only the env each pod gets (NNODES, NPROC_PER_NODE, JOB_COMPLETION_INDEX, MASTER_ADDR,
MASTER_PORT) form one 2-process group, train together and checkpoint with every rank's RNG state and the
optimizer digest of both ranks."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest

from .helpers import write_spec

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_two_nodes_rendezvous_through_the_indexed_job_env(tmp_path, tiny_model_dir, cot_dataset):
    spec = write_spec(tmp_path / "nodes.yaml", "nodes", {
        "method": "SFT", "model": {"uri": str(tiny_model_dir)}, "dataset": {"uri": str(cot_dataset)},
        "peft": {"method": "none"},
        "hyperparameters": {"learningRate": 1e-3, "maxSteps": 2, "perDeviceBatchSize": 2, "maxLength": 96,
                            "extra": {"export": False}},
        "checkpoint": {"saveSteps": 2}, "output": {"uri": str(tmp_path / "runs")}})
    port = _free_port()
    procs = []
    for index in (0, 1):
        env = {k: v for k, v in os.environ.items()
               if k not in ("RANK", "LOCAL_RANK", "WORLD_SIZE", "NODE_RANK", "KERNELGEN_ACCELERATE_CONFIG")}
        # Exactly what the operator's Indexed Job gives each pod (the node rank only as JOB_COMPLETION_INDEX);
        # each pod has its own local disk.
        env |= {"NNODES": "2", "NPROC_PER_NODE": "1", "JOB_COMPLETION_INDEX": str(index),
                "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port), "KERNELGEN_DEVICE": "cpu",
                "KERNELGEN_WORKDIR": str(tmp_path / f"node{index}")}
        procs.append(subprocess.Popen([sys.executable, "-m", "kernelgen.cli.main", "train", "run", "-f", str(spec)],
                                      env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    outs = [p.communicate(timeout=1200) for p in procs]
    for p, (_, err) in zip(procs, outs):
        assert p.returncode == 0, err[-3000:]
    assert (f"--nnodes=2 --nproc_per_node=1 --node_rank=1 --master_addr=127.0.0.1 --master_port={port}"
            in outs[1][1])
    out = tmp_path / "runs" / "nodes"
    summary = json.loads((out / "train-summary.json").read_text())
    assert summary["worldSize"] == 2 and summary["globalStep"] == 2 and summary["model"] is None
    ckpt = out / "checkpoints" / "checkpoint-2"
    assert {"COMPLETE", "rng_state_0.pth", "rng_state_1.pth", "kernelgen-checkpoint.json"} <= {
        p.name for p in ckpt.iterdir()}
    record = json.loads((ckpt / "kernelgen-checkpoint.json").read_text())
    assert record["step"] == 2 and record["worldSize"] == 2 and len(record["optimizerDigest"]) == 64
    assert not (out / "model").exists()   # extra.export: false
