"""Two processes on CPU (gloo) through the same relaunch under torchrun that a multi-NPU pod uses: both ranks
train, rank 0 publishes checkpoints (each carrying every rank's RNG state) and the merged model."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from .helpers import write_spec

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]


def test_two_process_lora_sft_under_torchrun(tmp_path, tiny_model_dir, cot_dataset):
    spec = write_spec(tmp_path / "ddp.yaml", "ddp", {
        "method": "SFT", "model": {"uri": str(tiny_model_dir)}, "dataset": {"uri": str(cot_dataset)},
        "peft": {"method": "lora", "r": 4, "alpha": 8, "dropout": 0.0},
        "hyperparameters": {"learningRate": 1e-3, "maxSteps": 4, "perDeviceBatchSize": 2, "maxLength": 96},
        "checkpoint": {"saveSteps": 2}, "output": {"uri": str(tmp_path / "runs")}})
    env = dict(os.environ, KERNELGEN_DEVICE="cpu", KERNELGEN_WORKDIR=str(tmp_path / "work"))
    env.pop("WORLD_SIZE", None)
    env.pop("LOCAL_RANK", None)
    proc = subprocess.run([sys.executable, "-m", "kernelgen.cli.main", "train", "run", "-f", str(spec),
                           "--nproc-per-node", "2"], env=env, capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "torch.distributed.run --standalone --nproc_per_node=2" in proc.stderr
    out = tmp_path / "runs" / "ddp"
    summary = json.loads((out / "train-summary.json").read_text())
    assert summary["worldSize"] == 2 and summary["globalStep"] == 4
    for step in (2, 4):
        ckpt = out / "checkpoints" / f"checkpoint-{step}"
        assert {"COMPLETE", "optimizer.pt", "rng_state_0.pth", "rng_state_1.pth"} <= {p.name for p in ckpt.iterdir()}
    assert (out / "model" / "model.safetensors").is_file() and (out / "model" / "README.md").is_file()
    assert "(2 process(es))" in (out / "model" / "README.md").read_text()
