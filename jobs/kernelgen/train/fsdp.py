"""What a TrainRun does differently under FSDP2 (`accelerate launch` with an FSDP config, KERNELGEN_ACCELERATE_CONFIG).

`accelerate launch` tells each process through its environment: ``ACCELERATE_USE_FSDP``,
``FSDP_ACTIVATION_CHECKPOINTING`` and ``FSDP_CPU_RAM_EFFICIENT_LOADING``. With RAM-efficient loading,
transformers gives real weights to local rank 0 only (the others get placeholders) and accelerate broadcasts
rank 0's weights when it shards the policy. trl's DPO reference model gets no such broadcast (trl shards it
as one unit, with whatever each rank loaded), so a full fine-tune's reference is built here: every rank loads
it, and each decoder layer becomes its own FSDP unit, so that one layer at a time is gathered.
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any, Iterator

from kernelgen.train import models


def _flag(name: str) -> bool:
    return os.environ.get(name, "false").lower() == "true"


def enabled() -> bool:
    return _flag("ACCELERATE_USE_FSDP")


def owns_activation_checkpointing() -> bool:
    """FSDP's own activation checkpointing is on; the Trainer refuses its own flag on top of it."""
    return enabled() and _flag("FSDP_ACTIVATION_CHECKPOINTING")


CHECKPOINTING_KEYS = ("activation_checkpointing", "gradient_checkpointing")


def choose_activation_checkpointing(trl_extra: dict[str, Any]) -> dict[str, Any] | None:
    """Under FSDP only FSDP's activation checkpointing runs (the Trainer's would add an all-gather per layer in
    the backward, and transformers refuses both). `hyperparameters.extra.activation_checkpointing` (or its old
    name) switches FSDP's on or off: it is taken out of the trl fields and put where accelerate's FSDP plugin
    reads it when the Trainer creates it. Returns the choice and why (None when FSDP is off)."""
    if not enabled():
        return None
    for key in CHECKPOINTING_KEYS:
        if key in trl_extra:
            on = bool(trl_extra.pop(key))
            for other in CHECKPOINTING_KEYS:
                trl_extra.pop(other, None)
            os.environ["FSDP_ACTIVATION_CHECKPOINTING"] = str(on).lower()
            return {"activation_checkpointing": on, "why": f"set in hyperparameters.extra ({key}), FSDP's"}
    return {"activation_checkpointing": owns_activation_checkpointing(), "why": "the accelerate config, FSDP's"}


@contextlib.contextmanager
def every_rank_loads() -> Iterator[None]:
    """Turn RAM-efficient loading off for one load: every rank reads the real weights."""
    old = os.environ.get("FSDP_CPU_RAM_EFFICIENT_LOADING")
    os.environ["FSDP_CPU_RAM_EFFICIENT_LOADING"] = "false"
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("FSDP_CPU_RAM_EFFICIENT_LOADING", None)
        else:
            os.environ["FSDP_CPU_RAM_EFFICIENT_LOADING"] = old


def decoder_layers(model: Any) -> list[Any]:
    """The modules transformers names as never to be split (the decoder layers)."""
    names = set(getattr(model, "_no_split_modules", None) or [])
    return [m for m in model.modules() if type(m).__name__ in names]


def sharded_reference(base: Path, dtype: Any) -> Any:
    """A frozen DPO reference model, sharded per decoder layer like the policy (trl leaves an FSDPModule as is)."""
    import torch
    from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

    with every_rank_loads():
        ref = models.load_model(base, dtype)
    ref.requires_grad_(False).eval()
    policy = MixedPrecisionPolicy(param_dtype=dtype, reduce_dtype=torch.float32)
    for layer in decoder_layers(ref):
        fully_shard(layer, mp_policy=policy)
    fully_shard(ref, mp_policy=policy)
    return ref
