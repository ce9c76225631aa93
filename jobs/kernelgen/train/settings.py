"""Resolved training settings: the spec's hyperparameters over the chosen preset.

The ``paper`` preset is Table 6 of the paper. SFT: learning rate 1.25e-6 (full) or 1.25e-5 (LoRA), cosine
decay, warm-up ratio 0.01, micro/global batch 1/128, weight decay 0.1, gradient clipping 1.0. DPO: beta 0.1,
learning rate 1e-6, cosine decay, warm-up ratio 0.1, global batch 64, 150 iterations. The paper gives no DPO
learning rate for LoRA; we use 10x the full rate, the same ratio as its SFT settings.
The ``none`` preset leaves unset fields at trl's defaults.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

PAPER: dict[str, dict[str, Any]] = {
    "SFT": {"learning_rate": {"full": 1.25e-6, "lora": 1.25e-5}, "lr_scheduler": "cosine", "warmup_ratio": 0.01,
            "per_device_batch_size": 1, "global_batch_size": 128, "weight_decay": 0.1, "max_grad_norm": 1.0},
    "DPO": {"learning_rate": {"full": 1e-6, "lora": 1e-5}, "lr_scheduler": "cosine", "warmup_ratio": 0.1,
            "per_device_batch_size": 1, "global_batch_size": 64, "max_steps": 150, "beta": 0.1,
            "max_grad_norm": 1.0},
}

# Keys of hyperparameters.extra that configure kernelgen itself rather than the trl config.
# `export: false` skips publishing model/ (benchmarks and smoke runs that only measure training).
KERNELGEN_EXTRA = {"overLength", "globalBatchSize", "loggingSteps", "seed", "exportDtype", "export"}


@dataclass
class Settings:
    method: str
    lora: bool
    learning_rate: float | None = None
    epochs: float | None = None
    max_steps: int | None = None
    per_device_batch_size: int = 1
    gradient_accumulation_steps: int = 1
    global_batch_size: int | None = None
    max_length: int = 2048
    warmup_ratio: float | None = None
    lr_scheduler: str | None = None
    weight_decay: float | None = None
    max_grad_norm: float | None = None
    packing: bool = False
    assistant_only_loss: bool = True
    beta: float = 0.1
    over_length: str = "drop"
    logging_steps: int | None = None
    seed: int = 0
    export: bool = True
    trl_extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def resolve(hp: Any, *, method: str, lora: bool, world_size: int = 1) -> Settings:
    """Settings from a spec `Hyperparameters` (preset, then explicit fields, then extra)."""
    preset = dict(PAPER[method]) if hp.preset == "paper" else {}
    lr = preset.pop("learning_rate", None)
    s = Settings(method=method, lora=lora, **{k: v for k, v in preset.items()})
    if isinstance(lr, dict):
        s.learning_rate = lr["lora" if lora else "full"]
    for name in ("learning_rate", "epochs", "max_steps", "per_device_batch_size", "max_length", "warmup_ratio",
                 "lr_scheduler", "packing", "assistant_only_loss", "beta"):
        value = getattr(hp, name)
        if value is not None:
            setattr(s, name, value)
    extra = dict(hp.extra or {})
    s.over_length = extra.pop("overLength", s.over_length)
    s.global_batch_size = extra.pop("globalBatchSize", s.global_batch_size)
    s.logging_steps = extra.pop("loggingSteps", s.logging_steps)
    s.seed = int(extra.pop("seed", s.seed))
    s.export = bool(extra.pop("export", s.export))
    extra.pop("exportDtype", None)
    s.trl_extra = extra
    if hp.gradient_accumulation_steps is not None:
        s.gradient_accumulation_steps = hp.gradient_accumulation_steps
        s.global_batch_size = s.per_device_batch_size * s.gradient_accumulation_steps * world_size
    elif s.global_batch_size:
        s.gradient_accumulation_steps = max(1, math.ceil(s.global_batch_size / (s.per_device_batch_size * world_size)))
    if method == "DPO":
        s.packing = False
        s.assistant_only_loss = False
    return s


def trl_kwargs(s: Settings) -> dict[str, Any]:
    """The fields of SFTConfig/DPOConfig these settings determine (unset ones keep trl's defaults)."""
    kw: dict[str, Any] = {
        "per_device_train_batch_size": s.per_device_batch_size,
        "gradient_accumulation_steps": s.gradient_accumulation_steps,
        "max_length": s.max_length,
        "seed": s.seed,
    }
    optional = {"learning_rate": s.learning_rate, "num_train_epochs": s.epochs, "max_steps": s.max_steps,
                "warmup_steps": s.warmup_ratio, "lr_scheduler_type": s.lr_scheduler,
                "weight_decay": s.weight_decay, "max_grad_norm": s.max_grad_norm}
    kw.update({k: v for k, v in optional.items() if v is not None})
    if s.method == "SFT":
        kw["packing"] = s.packing
    else:
        kw["beta"] = s.beta
    return kw
