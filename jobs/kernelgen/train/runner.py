"""One TrainRun, end to end: data, trl trainer, checkpoints in the artifact store, resume, export.

`kernelgen train run -f trainrun.yaml` and the pod entrypoint both call `run()`.

Outputs under ``<spec.output.uri>/<name>/``: ``data-report.json``, ``preferences/`` (DPO from BenchRun records),
``checkpoints/`` (unless ``checkpoint.uri`` points elsewhere), ``progress.json``, ``model/`` (HF checkpoint,
LoRA merged, with README.md as model card) and ``train-summary.json``.
"""
from __future__ import annotations

import importlib.util
import json
import logging
import os
import time
import warnings
from pathlib import Path
from typing import Any

from transformers import TrainerCallback, TrainingArguments

from kernelgen.storage import StoreError
from kernelgen.train import artifacts, checkpoints, data, distributed, fsdp, models, preferences, settings, templates

log = logging.getLogger(__name__)

# Harmless deprecation noise from peft/trl internals (see ../shared/reference/train-stack.md).
warnings.filterwarnings("ignore", message=".*is_gradient_checkpointing is deprecated.*")


def default_workdir(name: str) -> Path:
    return Path(os.environ.get("KERNELGEN_WORKDIR", models.cache_root() / "train" / name))


def _is_bench_output(uri: str | None) -> bool:
    return uri is not None and artifacts.exists(artifacts.join(uri, "records.jsonl"))


def load_training_rows(tr: Any, s: settings.Settings, tokenizer: Any, out: str) -> tuple[list[dict], dict]:
    """Rows in trl's conversational format plus a report (validation, token lengths, preference provenance).
    References to other runs must be resolved first (kernelgen.specs.refs: the operator, or --runs-root)."""
    from kernelgen.specs.refs import require_resolved

    require_resolved(tr)
    spec = tr.spec
    uri = spec.dataset.uri if spec.dataset else None
    info: dict[str, Any] = {"dataset": uri}
    if spec.method == "DPO" and (spec.preferences.records_uri or _is_bench_output(uri)):
        records_uri = spec.preferences.records_uri or uri
        records_uri = records_uri.removesuffix("/records.jsonl")
        pref = preferences.from_uris([records_uri], strategy=spec.preferences.strategy,
                                     max_pairs_per_task=spec.preferences.max_pairs_per_task)
        pref_uri = preferences.write(pref, artifacts.join(out, "preferences"))
        info["preferences"] = {k: v for k, v in pref.manifest.items() if k != "perTask"} | {"uri": pref_uri}
        records = [{k: r[k] for k in ("prompt", "chosen", "rejected")} for r in pref.rows]
        if uri and spec.preferences.records_uri and not _is_bench_output(uri):
            records += data.read_records(uri, spec.method)   # an explicit preference dataset is used as well
        source = pref_uri
    else:
        records = data.read_records(uri, spec.method)
        source = uri
    fmt = spec.dataset.format if spec.dataset else "auto"
    if spec.method == "DPO" and fmt == "auto":
        fmt = "preference"
    if not records and spec.method == "DPO" and "preferences" in info:
        raise data.DatasetError(f"no preference pairs could be built from {info['preferences']['sources']}: "
                                f"{info['preferences']['samples']} (a pair needs a correct and a failing kernel "
                                "of the same task)")
    rows, report = data.prepare(records, tokenizer, uri=source, fmt=fmt, max_length=s.max_length,
                                over_length=s.over_length)
    if spec.method == "SFT" and report.format == "preference":
        raise data.DatasetError("SFT needs messages or prompt-completion records, not preference pairs")
    if spec.method == "DPO" and report.format != "preference":
        raise data.DatasetError("DPO needs preference pairs (or preferences.recordsUri pointing at BenchRun records)")
    info["report"] = report.to_dict()
    return rows, info


class ProgressLog(TrainerCallback):
    """Loss, learning rate and tokens/s to stdout (one JSON line per log) and <out>/progress.json; on a resume,
    records the restored step and a digest of the restored optimizer state in <work>/resume.json."""

    def __init__(self, out: str, work: Path) -> None:
        self.out, self.work = out, work
        self.history: list[dict[str, Any]] = []
        self._t: float | None = None
        self._tokens = 0
        self.resume: dict[str, Any] = {}

    def on_train_begin(self, args, state, control, optimizer=None, **kw):  # noqa: ANN001 - callback signature
        self._t, self._tokens = time.perf_counter(), state.num_input_tokens_seen
        if state.global_step and optimizer is not None:
            self.resume = {"globalStep": state.global_step,
                           "optimizerDigest": checkpoints.optimizer_digest(optimizer.state_dict())}
            if state.is_world_process_zero:
                (self.work / "resume.json").write_text(json.dumps(self.resume))

    def on_log(self, args, state, control, logs=None, **kw):  # noqa: ANN001
        if not state.is_world_process_zero or not logs:
            return
        now, tokens = time.perf_counter(), state.num_input_tokens_seen
        entry = {"step": state.global_step, "maxSteps": state.max_steps,
                 **{k: (round(v, 6) if isinstance(v, float) else v) for k, v in logs.items()}}
        if self._t is not None and tokens and now > self._t and "loss" in logs:
            entry["tokensPerSecond"] = round((tokens - self._tokens) / (now - self._t), 1)
            self._t, self._tokens = now, tokens
        peak = _peak_memory_gib()
        if peak is not None:
            entry["peakMemGiB"] = peak
        self.history.append(entry)
        print("kernelgen-progress " + json.dumps(entry), flush=True)
        artifacts.write_bytes(artifacts.join(self.out, "progress.json"),
                              json.dumps({"latest": entry, "history": self.history[-200:]}).encode())


def _peak_memory_gib() -> float | None:
    """Peak memory this process has allocated on its accelerator so far (None on CPU)."""
    import torch

    for name in ("cuda", "npu"):
        backend = getattr(torch, name, None)
        if backend is not None and backend.is_available() and backend.is_initialized():
            return round(backend.max_memory_allocated() / 2**30, 2)
    return None


def fast_path(s: settings.Settings, device: str, model_type: str) -> dict[str, Any]:
    """Pick Liger's fused kernels where they are safe and measured faster (benchmarks/train_scale_out.md: 1.5-1.8x
    the tokens/s of the plain run through `kernelgen train run`, with less memory): on CUDA, with liger-kernel
    installed (the `[liger]` extra) and a model type it patches. An explicit `hyperparameters.extra.use_liger_kernel` always wins.
    Returns the choice and why, for the log, the summary and the model card."""
    if "use_liger_kernel" in s.trl_extra:
        return {"use_liger_kernel": bool(s.trl_extra["use_liger_kernel"]), "why": "set in hyperparameters.extra"}
    if device != "cuda":
        return {"use_liger_kernel": False, "why": f"Liger's Triton kernels need CUDA (device: {device})"}
    if importlib.util.find_spec("liger_kernel") is None:
        return {"use_liger_kernel": False, "why": "liger-kernel is not installed (pip install 'ascend-kernelgen[liger]')"}
    from liger_kernel.transformers.monkey_patch import MODEL_TYPE_TO_APPLY_LIGER_FN

    if model_type not in MODEL_TYPE_TO_APPLY_LIGER_FN:
        return {"use_liger_kernel": False, "why": f"Liger has no kernels for model type {model_type!r}"}
    s.trl_extra["use_liger_kernel"] = True
    return {"use_liger_kernel": True, "why": "default on CUDA for a model type Liger patches"}


def _peft_config(spec: Any):
    if spec.peft.method != "lora":
        return None
    from peft import LoraConfig

    targets = spec.peft.target_modules
    return LoraConfig(r=spec.peft.r, lora_alpha=spec.peft.alpha, lora_dropout=spec.peft.dropout,
                      task_type="CAUSAL_LM", target_modules="all-linear" if targets == ["all-linear"] else targets)


# transformers 5.24 renamed gradient_checkpointing to activation_checkpointing; pods may carry an older release.
_CKPT_FIELD = ("activation_checkpointing" if "activation_checkpointing" in TrainingArguments.__dataclass_fields__
               else "gradient_checkpointing")


def build_config(spec: Any, s: settings.Settings, device: str, work: Path) -> Any:
    from trl import DPOConfig, SFTConfig

    kw = settings.trl_kwargs(s)
    kw.update(
        output_dir=str(work / "trainer"),
        save_strategy="steps",
        save_steps=spec.checkpoint.save_steps,
        save_total_limit=spec.checkpoint.keep,
        logging_steps=s.logging_steps or (1 if (s.max_steps or 0) and s.max_steps <= 100 else 10),
        report_to="none",
        bf16=device != "cpu",
        use_cpu=device == "cpu",
        # Under FSDP only FSDP's own activation checkpointing runs (fsdp.choose_activation_checkpointing).
        **{_CKPT_FIELD: device != "cpu" and not fsdp.enabled()},
        include_num_input_tokens_seen="non_padding",
        dataloader_num_workers=0,
    )
    if distributed.world_size() > 1 and not fsdp.enabled():
        # Every parameter of a causal LM (or of its LoRA adapter) gets a gradient each step: skip DDP's search for
        # unused ones, an extra pass over the autograd graph per step (the Trainer asks for it when activation
        # checkpointing is off).
        kw["ddp_find_unused_parameters"] = False
    if device == "npu" and distributed.world_size() > 1:
        kw["ddp_backend"] = "hccl"
    if spec.method == "SFT":
        kw["assistant_only_loss"] = s.assistant_only_loss
    kw.update(s.trl_extra)   # free-form trl fields win
    return (SFTConfig if spec.method == "SFT" else DPOConfig)(**kw)


def _saved_digest(ckpt_uri: str, name: str) -> dict[str, Any]:
    """The optimizer digest recorded when checkpoint `name` was saved (none for checkpoints of older releases)."""
    try:
        record = json.loads(artifacts.read_bytes(artifacts.join(ckpt_uri, name, checkpoints.DIGEST_FILE)))
    except (OSError, ValueError, StoreError):
        return {}
    return {"savedOptimizerDigest": record.get("optimizerDigest"), "savedWorldSize": record.get("worldSize")}


def run(tr: Any, *, workdir: Path | None = None) -> dict[str, Any]:
    """Train as `tr` (a kernelgen.specs.TrainRun) says; returns the summary also written to the output."""
    import torch

    spec = tr.spec
    out = tr.output_uri()
    if spec.output.endpoint:   # kernelgen.storage reads the S3 endpoint and region from the environment
        os.environ.setdefault("KERNELGEN_S3_ENDPOINT", spec.output.endpoint)
    if spec.output.region:
        os.environ.setdefault("AWS_REGION", spec.output.region)
    work = workdir or default_workdir(tr.name)
    work.mkdir(parents=True, exist_ok=True)
    device = distributed.accelerator()
    lora = spec.peft.method == "lora"
    s = settings.resolve(spec.hyperparameters, method=spec.method, lora=lora, world_size=distributed.world_size())
    ckpt_uri = spec.checkpoint.uri or artifacts.join(out, "checkpoints")
    t0 = time.time()
    from kernelgen.specs.refs import require_resolved

    require_resolved(tr)
    base = models.hf_checkpoint(spec.model.uri, spec.model.gguf_file)
    tokenizer = models.load_tokenizer(base)
    stock_template = tokenizer.chat_template
    rows, info = load_training_rows(tr, s, tokenizer, out)
    fmt = info["report"]["format"]
    if spec.method == "SFT" and s.assistant_only_loss and fmt == "messages":
        templates.install_training_template(tokenizer)
    if distributed.is_main():
        artifacts.write_bytes(artifacts.join(out, "data-report.json"), json.dumps(info, indent=2).encode())
    log.info("data: %s records kept of %s (%s); tokens p50=%s max=%s", info["report"]["kept"],
             info["report"]["read"], fmt, info["report"]["lengths"]["p50"], info["report"]["lengths"]["max"])

    from datasets import Dataset
    from transformers import AutoConfig

    choice = fast_path(s, device, AutoConfig.from_pretrained(base).model_type)
    log.info("fast path: use_liger_kernel=%s (%s)", choice["use_liger_kernel"], choice["why"])
    checkpointing = fsdp.choose_activation_checkpointing(s.trl_extra)
    if checkpointing is not None:
        choice["activation_checkpointing"] = checkpointing
        log.info("FSDP activation checkpointing: %s (%s)", checkpointing["activation_checkpointing"],
                 checkpointing["why"])
    # The trainer config first: it starts the process group, so that under FSDP with RAM-efficient loading only
    # local rank 0 reads the weights (the others get placeholders that accelerate fills from rank 0).
    config = build_config(spec, s, device, work)
    model = models.load_model(base, torch.float32)
    progress = ProgressLog(out, work)
    sync = checkpoints.CheckpointSync(ckpt_uri, spec.checkpoint.keep)
    common = dict(model=model, args=config, train_dataset=Dataset.from_list(rows), processing_class=tokenizer,
                  peft_config=_peft_config(spec), callbacks=[progress, sync])
    if spec.method == "SFT":
        from trl import SFTTrainer

        trainer = SFTTrainer(**common)
    else:
        from trl import DPOTrainer

        # LoRA: the reference is the base with the adapter disabled; full under FSDP: a per-layer sharded copy
        # (see kernelgen.train.fsdp); otherwise trl loads a frozen copy itself.
        ref = fsdp.sharded_reference(base, torch.bfloat16) if fsdp.enabled() and not lora else None
        trainer = DPOTrainer(ref_model=ref, **common)

    resume_from, saved = None, {}
    found = checkpoints.latest(ckpt_uri) if spec.checkpoint.resume else None
    if found:
        step, name = found
        saved = _saved_digest(ckpt_uri, name)   # now: the run may prune this checkpoint before it ends
        local = Path(config.output_dir) / name
        if distributed.is_local_main() and not (local / "trainer_state.json").exists():
            checkpoints.fetch(ckpt_uri, name, Path(config.output_dir))
        distributed.barrier()
        resume_from = str(local)
        log.info("resuming from %s (step %d)", artifacts.join(ckpt_uri, name), step)
    result = trainer.train(resume_from_checkpoint=resume_from)

    summary: dict[str, Any] = {
        "name": tr.name, "method": spec.method, "peft": spec.peft.method, "device": device,
        "worldSize": distributed.world_size(), "baseModel": spec.model.uri, "settings": s.to_dict(),
        "trlConfig": {k: v for k, v in config.to_dict().items() if isinstance(v, (int, float, str, bool, type(None)))},
        "data": info, "globalStep": trainer.state.global_step, "resumedFrom": resume_from and Path(resume_from).name,
        "resume": progress.resume | saved, "fastPath": choice,
        "fsdp": fsdp.enabled(), "trainLoss": result.training_loss, "metrics": result.metrics,
        "history": progress.history, "checkpoints": ckpt_uri, "seconds": round(time.time() - t0, 1),
    }
    from kernelgen.train import export

    summary["model"] = (export.export(trainer, tokenizer, stock_template, spec=spec, base=base, out=out,
                                      work=work, device=device, summary=summary) if s.export else None)
    if distributed.is_main():
        artifacts.write_bytes(artifacts.join(out, "train-summary.json"),
                              json.dumps(summary, indent=2, default=str).encode())
    return summary
