"""Checkpoints in the artifact store: upload each one the Trainer saves, find the newest complete one to resume.

A checkpoint is complete once every node has uploaded its files and rank 0 has written ``<ckpt>/COMPLETE``,
so a pod killed mid-upload never leaves a checkpoint that a restart would trust. Rank 0 also writes
``<ckpt>/kernelgen-checkpoint.json`` (step, world size, digest of the optimizer state as saved), which a resume
compares with the digest of the state it restored (``<workdir>/resume.json``, the summary's ``resume``).
"""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from transformers import TrainerCallback

from kernelgen.train import artifacts, distributed

MARKER = "COMPLETE"
_NAME = re.compile(r"^checkpoint-(\d+)$")


def complete_checkpoints(uri: str) -> list[tuple[int, str]]:
    """(step, name) of the complete checkpoints under `uri`, oldest first."""
    found = []
    for rel in artifacts.list_files(uri):
        parts = rel.split("/")
        if len(parts) == 2 and parts[1] == MARKER and (m := _NAME.match(parts[0])):
            found.append((int(m.group(1)), parts[0]))
    return sorted(found)


def latest(uri: str) -> tuple[int, str] | None:
    found = complete_checkpoints(uri)
    return found[-1] if found else None


def fetch(uri: str, name: str, local_root: Path) -> Path:
    """Download checkpoint `name` into `local_root/name` (the layout Trainer.train(resume_from_checkpoint) reads)."""
    target = local_root / name
    artifacts.download_dir(artifacts.join(uri, name), target)
    (target / MARKER).unlink(missing_ok=True)
    return target


def _tensor_bytes(value: Any) -> bytes:
    """The raw bytes of a tensor; of this rank's shard for a sharded (FSDP2 DTensor) one."""
    import torch

    if hasattr(value, "to_local"):
        value = value.to_local()
    value = value.detach().contiguous().cpu()
    return value.reshape(-1).view(torch.uint8).numpy().tobytes()


def optimizer_digest(state_dict: dict[str, Any]) -> str:
    """A digest of an optimizer's per-parameter state and step counts, to check that a resume restored it.

    Under several processes every rank must call this: each hashes its own state (its shards under FSDP) and the
    digests of all ranks, in rank order, are hashed together."""
    import torch

    h = hashlib.sha256()
    for key in sorted(state_dict["state"], key=str):
        for name, value in sorted(state_dict["state"][key].items()):
            h.update(f"{key}:{name}".encode())
            if isinstance(value, torch.Tensor):
                h.update(f"{value.dtype}{tuple(value.shape)}".encode())
                h.update(_tensor_bytes(value))
            else:
                h.update(repr(value).encode())
    local = h.hexdigest()
    import torch.distributed as dist

    if not (dist.is_available() and dist.is_initialized()) or dist.get_world_size() == 1:
        return local
    ranks: list[str | None] = [None] * dist.get_world_size()
    dist.all_gather_object(ranks, local)
    return hashlib.sha256("".join(str(r) for r in ranks).encode()).hexdigest()


DIGEST_FILE = "kernelgen-checkpoint.json"


class CheckpointSync(TrainerCallback):
    """Upload every checkpoint the Trainer writes to `uri`, mark it complete, keep the newest `keep`."""

    def __init__(self, uri: str, keep: int) -> None:
        self.uri = uri
        self.keep = keep
        self.uploaded: list[str] = []

    def on_save(self, args, state, control, **kwargs):  # noqa: ANN001 - transformers callback signature
        name = f"checkpoint-{state.global_step}"
        local = Path(args.output_dir) / name
        distributed.barrier()   # every rank has written its files (its RNG state, its shards) before the upload
        if distributed.is_local_main() and local.is_dir():
            artifacts.upload_dir(local, artifacts.join(self.uri, name))
        distributed.barrier()
        optimizer = kwargs.get("optimizer")
        digest = optimizer_digest(optimizer.state_dict()) if optimizer is not None else None   # every rank
        if state.is_world_process_zero:
            record = {"step": state.global_step, "worldSize": distributed.world_size(), "optimizerDigest": digest}
            artifacts.write_bytes(artifacts.join(self.uri, name, DIGEST_FILE), json.dumps(record).encode())
            artifacts.write_bytes(artifacts.join(self.uri, name, MARKER), f"step {state.global_step}\n".encode())
            self.uploaded.append(name)
            for _, old in complete_checkpoints(self.uri)[:-self.keep]:
                artifacts.delete_file(artifacts.join(self.uri, old, MARKER))   # first, so it never looks complete
                artifacts.delete_dir(artifacts.join(self.uri, old))
        return control
