"""Presets, the operator's distributed environment, and the CLI's exit codes (no training)."""
from __future__ import annotations

import sys

from typer.testing import CliRunner

from kernelgen.cli.train import app
from kernelgen.specs.trainrun import Hyperparameters
from kernelgen.train import distributed, settings

from .helpers import write_spec


def test_paper_preset_is_table_6():
    sft_full = settings.resolve(Hyperparameters(preset="paper"), method="SFT", lora=False, world_size=8)
    assert (sft_full.learning_rate, sft_full.lr_scheduler, sft_full.warmup_ratio) == (1.25e-6, "cosine", 0.01)
    assert (sft_full.weight_decay, sft_full.max_grad_norm, sft_full.per_device_batch_size) == (0.1, 1.0, 1)
    assert sft_full.gradient_accumulation_steps == 16          # 128 global / (1 per device x 8 devices)
    assert settings.resolve(Hyperparameters(preset="paper"), method="SFT", lora=True).learning_rate == 1.25e-5
    dpo = settings.resolve(Hyperparameters(preset="paper"), method="DPO", lora=False, world_size=4)
    assert (dpo.learning_rate, dpo.beta, dpo.max_steps, dpo.warmup_ratio) == (1e-6, 0.1, 150, 0.1)
    assert dpo.gradient_accumulation_steps == 16 and dpo.packing is False
    kw = settings.trl_kwargs(dpo)
    assert kw["beta"] == 0.1 and kw["warmup_steps"] == 0.1 and kw["lr_scheduler_type"] == "cosine"


def test_explicit_fields_and_extra_override_the_preset():
    hp = Hyperparameters.model_validate({"preset": "paper", "learningRate": 3e-6, "gradientAccumulationSteps": 2,
                                         "extra": {"overLength": "trim", "use_liger_kernel": True, "seed": 7}})
    s = settings.resolve(hp, method="SFT", lora=False, world_size=2)
    assert s.learning_rate == 3e-6 and s.gradient_accumulation_steps == 2 and s.global_batch_size == 4
    assert s.over_length == "trim" and s.seed == 7 and s.trl_extra == {"use_liger_kernel": True}
    assert settings.trl_kwargs(settings.resolve(Hyperparameters(), method="SFT", lora=False)).keys() == \
        {"per_device_train_batch_size", "gradient_accumulation_steps", "max_length", "seed", "packing"}


def test_topology_from_the_operators_env_and_launchers():
    env = {"NNODES": "2", "NPROC_PER_NODE": "8", "JOB_COMPLETION_INDEX": "1", "MASTER_ADDR": "run-train-r0-0.run",
           "MASTER_PORT": "29500"}
    topo = distributed.topology(env, device="cpu")
    assert (topo.nnodes, topo.nproc_per_node, topo.node_rank, topo.world_size) == (2, 8, 1, 16)
    argv = distributed.launcher_argv(topo, ["-m", "kernelgen.cli.main"])
    assert argv[:3] == [sys.executable, "-m", "torch.distributed.run"]
    assert "--node_rank=1" in argv and "--master_addr=run-train-r0-0.run" in argv and "--nproc_per_node=8" in argv
    fsdp = distributed.accelerate_config({"KERNELGEN_ACCELERATE_CONFIG": "fsdp"})
    assert fsdp.is_file() and "distributed_type: FSDP" in fsdp.read_text()
    argv = distributed.launcher_argv(topo, ["-m", "x"], fsdp)
    assert "--num_processes=16" in argv and "--machine_rank=1" in argv and argv[-2:] == ["-m", "x"]
    assert distributed.backend("npu") == "hccl" and distributed.backend("cuda") == "nccl"
    assert not distributed.under_torchrun({"WORLD_SIZE": "1"})   # the operator sets it for single-process pods
    assert distributed.under_torchrun({"WORLD_SIZE": "2", "LOCAL_RANK": "0"})


def test_cli_exit_codes(tmp_path, tiny_model_dir):
    bad = tmp_path / "bad.yaml"
    bad.write_text("apiVersion: kernelgen.ai/v1alpha1\nkind: TrainRun\nmetadata: {name: x}\nspec: {method: PPO}\n")
    result = CliRunner().invoke(app, ["run", "-f", str(bad)])
    assert result.exit_code == 2
    data = tmp_path / "junk.jsonl"
    data.write_text('{"text_only": "no messages here"}\n')
    spec = write_spec(tmp_path / "s.yaml", "s", {"method": "SFT", "model": {"uri": str(tiny_model_dir)},
                                                 "dataset": {"uri": str(data)}, "output": {"uri": str(tmp_path)}})
    result = CliRunner().invoke(app, ["run", "--spec", str(spec)])
    assert result.exit_code == 2 and "dataset" in result.output


def test_fast_path_turns_liger_on_only_where_it_can_run():
    import importlib.util

    from kernelgen.train.runner import fast_path

    s = settings.resolve(Hyperparameters.model_validate({"extra": {"export": False}}), method="SFT", lora=False)
    assert s.export is False and "export" not in s.trl_extra   # a kernelgen key, never passed to trl
    assert fast_path(s, "cpu", "qwen3") == {"use_liger_kernel": False,
                                            "why": "Liger's Triton kernels need CUDA (device: cpu)"}
    assert fast_path(s, "npu", "qwen3")["use_liger_kernel"] is False and "use_liger_kernel" not in s.trl_extra
    explicit = settings.resolve(Hyperparameters.model_validate({"extra": {"use_liger_kernel": False}}),
                                method="SFT", lora=False)
    assert fast_path(explicit, "cuda", "qwen3") == {"use_liger_kernel": False, "why": "set in hyperparameters.extra"}
    on_cuda = fast_path(s, "cuda", "qwen3")
    if importlib.util.find_spec("liger_kernel") is None:   # CI installs no [liger] extra
        assert on_cuda["use_liger_kernel"] is False and "not installed" in on_cuda["why"]
        assert "use_liger_kernel" not in s.trl_extra
    else:
        assert on_cuda["use_liger_kernel"] is True and s.trl_extra["use_liger_kernel"] is True
        assert fast_path(settings.resolve(Hyperparameters(), method="SFT", lora=False), "cuda",
                         "no-such-model")["use_liger_kernel"] is False


def test_activation_checkpointing_under_fsdp_is_fsdps_and_follows_the_spec(monkeypatch):
    """Under FSDP, `extra.activation_checkpointing` switches FSDP's own checkpointing (what accelerate's plugin
    reads when the Trainer creates it), never the Trainer's; without it the accelerate config decides."""
    from accelerate.utils import FullyShardedDataParallelPlugin

    from kernelgen.train import fsdp

    def resolved(extra: dict) -> settings.Settings:
        return settings.resolve(Hyperparameters.model_validate({"extra": extra}), method="DPO", lora=False)

    monkeypatch.delenv("ACCELERATE_USE_FSDP", raising=False)
    off_fsdp = resolved({"activation_checkpointing": False})
    assert fsdp.choose_activation_checkpointing(off_fsdp.trl_extra) is None
    assert off_fsdp.trl_extra == {"activation_checkpointing": False}   # DDP: the Trainer's flag, as before

    monkeypatch.setenv("ACCELERATE_USE_FSDP", "true")
    monkeypatch.setenv("FSDP_ACTIVATION_CHECKPOINTING", "true")   # what configs/fsdp.yaml gives each process
    assert fsdp.choose_activation_checkpointing(resolved({}).trl_extra) == {
        "activation_checkpointing": True, "why": "the accelerate config, FSDP's"}
    s = resolved({"activation_checkpointing": False, "beta": 0.2})
    choice = fsdp.choose_activation_checkpointing(s.trl_extra)
    assert choice == {"activation_checkpointing": False,
                      "why": "set in hyperparameters.extra (activation_checkpointing), FSDP's"}
    assert s.trl_extra == {"beta": 0.2}   # not passed on as the Trainer's flag
    assert FullyShardedDataParallelPlugin(fsdp_version=2).activation_checkpointing is False
    assert not fsdp.owns_activation_checkpointing()

    monkeypatch.setenv("FSDP_ACTIVATION_CHECKPOINTING", "false")   # a config without it, turned on by the old name
    s = resolved({"gradient_checkpointing": True})
    assert fsdp.choose_activation_checkpointing(s.trl_extra)["activation_checkpointing"] is True
    assert s.trl_extra == {} and FullyShardedDataParallelPlugin(fsdp_version=2).activation_checkpointing is True
