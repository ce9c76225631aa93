"""FSDP2 on CPU (2 processes, gloo), for the pieces a TrainRun under `accelerate launch` with configs/fsdp.yaml relies
on. The whole run cannot go through accelerate here: accelerate maps a CPU run to MULTI_CPU (DDP) and ignores its
FSDP plugin, so the end-to-end FSDP2 run, checkpoint and resume were measured on GPUs
(benchmarks/train_scale_out.md). Checked here: the DPO reference built by kernelgen.train.fsdp computes with the
real weights on every rank (transformers gives ranks other than 0 placeholders under RAM-efficient loading), and
the optimizer digest of sharded state is the same after a distributed-checkpoint save and load."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def test_fsdp2_reference_and_sharded_optimizer_digest_on_cpu(tmp_path, tiny_model_dir):
    env = {k: v for k, v in os.environ.items() if k not in ("RANK", "LOCAL_RANK", "WORLD_SIZE")}
    proc = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node=2",
                           str(Path(__file__).with_name("fsdp_worker.py")), str(tiny_model_dir), str(tmp_path)],
                          env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    ranks = [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in (0, 1)]
    for r in ranks:
        assert r["refSharded"] and r["refFrozen"]
        assert r["refMaxAbsDiff"] < 1e-5, r
        assert r["optimizerSharded"]
        assert r["restored"] == r["saved"] != r["beforeLoad"]
    assert ranks[0]["saved"] == ranks[1]["saved"]   # one digest for the whole sharded state
