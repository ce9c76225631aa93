"""SFT (full and LoRA) and DPO from the SFT output, on SmolLM2-135M on CPU, a few steps each: the loss goes
down, the exported model loads and its card says what was done. Data comes from the CoTBuild exporter."""
from __future__ import annotations

import json

import pytest

from kernelgen.train import runner

from .helpers import load_run, write_spec

# Generous limit: on a loaded 2-core machine a full SmolLM2 SFT step took minutes (seconds when idle).
pytestmark = [pytest.mark.slow, pytest.mark.model, pytest.mark.timeout(2400)]


def _losses(summary):
    return [h["loss"] for h in summary["history"] if "loss" in h]


def _train(tmp_path, name, spec):
    spec.setdefault("output", {"uri": str(tmp_path / "runs")})
    spec.setdefault("checkpoint", {"saveSteps": 1000})
    tr = load_run(write_spec(tmp_path / f"{name}.yaml", name, spec))
    return runner.run(tr, workdir=tmp_path / "work" / name)


def test_sft_full_then_dpo_lora_from_its_output(tmp_path, smol_dir, cot_dataset):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    sft = _train(tmp_path, "sft-full", {
        "method": "SFT", "model": {"uri": str(smol_dir)}, "dataset": {"uri": str(cot_dataset)},
        "peft": {"method": "none"},
        "hyperparameters": {"learningRate": 1e-4, "maxSteps": 3, "perDeviceBatchSize": 2, "maxLength": 96,
                            "lrScheduler": "constant"}})
    losses = _losses(sft)
    assert sft["globalStep"] == 3 and len(losses) == 3 and losses[-1] < losses[0]
    assert sft["data"]["report"]["format"] == "messages" and sft["data"]["report"]["kept"] == 12
    model_dir = tmp_path / "runs" / "sft-full" / "model"
    assert (model_dir / "model.safetensors").is_file() and (model_dir / "config.json").is_file()
    card = (model_dir / "README.md").read_text()
    assert "**SFT** (full fine-tuning)" in card and "| learning_rate | 0.0001 |" in card and "12 used" in card
    tok = AutoTokenizer.from_pretrained(model_dir)
    assert "{% generation %}" not in tok.chat_template   # the stock template is exported, not the training one
    AutoModelForCausalLM.from_pretrained(model_dir)

    dpo = _train(tmp_path, "dpo-lora", {
        "method": "DPO", "model": {"uri": str(model_dir)}, "dataset": {"uri": str(cot_dataset)},
        "peft": {"method": "lora", "r": 8, "alpha": 16, "dropout": 0.0},
        "hyperparameters": {"learningRate": 5e-4, "maxSteps": 3, "perDeviceBatchSize": 2, "maxLength": 96,
                            "lrScheduler": "constant", "beta": 0.1}})
    losses = _losses(dpo)
    assert dpo["settings"]["beta"] == 0.1 and dpo["data"]["report"]["format"] == "preference"
    assert abs(losses[0] - 0.6931) < 0.01 and losses[-1] < losses[0]
    merged = tmp_path / "runs" / "dpo-lora" / "model"
    assert not (merged / "adapter_config.json").exists() and (merged / "model.safetensors").is_file()
    assert "**DPO** (LoRA, merged)" in (merged / "README.md").read_text()


def test_sft_lora_assistant_only_merges_into_the_base(tmp_path, smol_dir, cot_dataset):
    import torch
    from safetensors.torch import load_file

    sft = _train(tmp_path, "sft-lora", {
        "method": "SFT", "model": {"uri": str(smol_dir)}, "dataset": {"uri": str(cot_dataset), "format": "messages"},
        "peft": {"method": "lora", "r": 8, "alpha": 16, "dropout": 0.0},
        "hyperparameters": {"learningRate": 2e-3, "maxSteps": 3, "perDeviceBatchSize": 2, "maxLength": 96,
                            "lrScheduler": "constant", "assistantOnlyLoss": True}})
    losses = _losses(sft)
    assert losses[-1] < losses[0]
    assert sft["trlConfig"]["assistant_only_loss"] is True
    merged = load_file(tmp_path / "runs" / "sft-lora" / "model" / "model.safetensors")
    base = load_file(smol_dir / "model.safetensors")
    assert not any("lora" in k for k in merged) and set(merged) == set(base)
    changed = [k for k in base if not torch.equal(base[k], merged[k])]
    assert changed and all(k.endswith("proj.weight") for k in changed)   # only adapted linears moved
    summary = json.loads((tmp_path / "runs" / "sft-lora" / "train-summary.json").read_text())
    assert summary["peft"] == "lora" and summary["globalStep"] == 3
