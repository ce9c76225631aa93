"""A TrainRun killed (SIGKILL) after a checkpoint resumes from the newest complete checkpoint in the artifact
store with the same step count and optimizer state, and continues exactly as an uninterrupted run would.
Uses a tiny random-init model with SmolLM2's tokenizer so that many steps fit in a few seconds."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from kernelgen.train import checkpoints, runner

from .helpers import load_run, write_spec

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]
STEPS, SAVE = 24, 8


def _spec(model_dir: Path, data: Path, out: Path) -> dict:
    return {"method": "SFT", "model": {"uri": str(model_dir)}, "dataset": {"uri": str(data)},
            "peft": {"method": "none"},
            "hyperparameters": {"learningRate": 3e-3, "maxSteps": STEPS, "perDeviceBatchSize": 2, "maxLength": 96,
                                "lrScheduler": "cosine", "warmupRatio": 0.1, "extra": {"loggingSteps": 1}},
            "checkpoint": {"saveSteps": SAVE, "keep": 2}, "output": {"uri": str(out)}}


def _losses(summary, after: int = 0) -> dict[int, float]:
    return {h["step"]: h["loss"] for h in summary["history"] if "loss" in h and h["step"] > after}


def test_kill_after_checkpoint_then_resume(tmp_path, tiny_model_dir, cot_dataset):
    reference = runner.run(load_run(write_spec(tmp_path / "ref.yaml", "ref", _spec(
        tiny_model_dir, cot_dataset, tmp_path / "ref-out"))), workdir=tmp_path / "work-ref")
    assert reference["globalStep"] == STEPS

    spec_file = write_spec(tmp_path / "killed.yaml", "killed", _spec(tiny_model_dir, cot_dataset, tmp_path / "out"))
    ckpt_uri = str(tmp_path / "out" / "killed" / "checkpoints")
    env = dict(os.environ, KERNELGEN_WORKDIR=str(tmp_path / "work-killed"), KERNELGEN_DEVICE="cpu")
    proc = subprocess.Popen([sys.executable, "-m", "kernelgen.cli.main", "train", "run", "-f", str(spec_file)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.time() + 600
    while not checkpoints.complete_checkpoints(ckpt_uri):
        assert proc.poll() is None, proc.stderr.read().decode()[-3000:]
        assert time.time() < deadline, "no checkpoint within 10 minutes"
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    step, name = checkpoints.latest(ckpt_uri)
    assert step % SAVE == 0 and step < STEPS
    assert not (tmp_path / "out" / "killed" / "train-summary.json").exists()
    saved_optimizer = torch.load(Path(ckpt_uri) / name / "optimizer.pt", weights_only=False)

    # The same spec again, as a restarted pod would run it (a fresh local workdir: only the store survives).
    resumed = runner.run(load_run(spec_file), workdir=tmp_path / "work-restarted")
    assert resumed["resumedFrom"] == name and resumed["resume"]["globalStep"] == step
    assert resumed["resume"]["optimizerDigest"] == checkpoints.optimizer_digest(saved_optimizer)
    # ... and equal to the digest recorded when the checkpoint was saved (what an FSDP run, whose optimizer state is
    # saved sharded, is checked against).
    assert resumed["resume"]["savedOptimizerDigest"] == resumed["resume"]["optimizerDigest"]
    assert resumed["globalStep"] == STEPS
    after = _losses(resumed, step)
    assert sorted(after) == list(range(step + 1, STEPS + 1))
    expected = _losses(reference, step)
    assert after == pytest.approx(expected, rel=1e-3)
    # Old checkpoints are pruned to `keep`, newest kept, all complete.
    assert [s for s, _ in checkpoints.complete_checkpoints(ckpt_uri)] == [STEPS - STEPS % SAVE - SAVE,
                                                                           STEPS - STEPS % SAVE]
