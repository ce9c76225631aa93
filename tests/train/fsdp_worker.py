"""One rank of tests/train/test_fsdp_cpu.py, started by torchrun (2 processes, gloo, CPU): FSDP2's pieces that the
TrainRun relies on, on CPU. Writes <out>/rank<N>.json."""
from __future__ import annotations

import faulthandler
import json
import os
import sys
from pathlib import Path

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import get_optimizer_state_dict, set_optimizer_state_dict
from torch.distributed.fsdp import fully_shard

from kernelgen.train import checkpoints, fsdp, models


def _sharded_adamw(seed: int) -> tuple[torch.nn.Module, torch.optim.Optimizer]:
    torch.manual_seed(seed)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 8))
    for layer in (model[0], model[2]):
        fully_shard(layer)
    fully_shard(model)
    return model, torch.optim.AdamW(model.parameters(), lr=1e-2)


def _step(model: torch.nn.Module, opt: torch.optim.Optimizer) -> None:
    torch.manual_seed(100 + dist.get_rank())
    model(torch.randn(4, 16)).square().mean().backward()
    opt.step()
    opt.zero_grad()


def main(model_dir: Path, out: Path) -> None:
    # What `accelerate launch` with configs/fsdp.yaml tells each process.
    os.environ.update(ACCELERATE_USE_FSDP="true", FSDP_CPU_RAM_EFFICIENT_LOADING="true")
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    result: dict = {"rank": rank}

    # The DPO reference: every rank must compute with the real weights.
    ids = torch.randint(0, 1000, (2, 24), generator=torch.Generator().manual_seed(0))
    with fsdp.every_rank_loads():
        plain = models.load_model(model_dir, torch.float32)
    ref = fsdp.sharded_reference(model_dir, torch.float32)
    # Before a forward: afterwards the root group (embeddings, final norm, LM head) stays gathered.
    result["refSharded"] = all(hasattr(p, "to_local") for p in ref.parameters())
    result["refFrozen"] = not any(p.requires_grad for p in ref.parameters()) and not ref.training
    with torch.no_grad():
        expected = plain(input_ids=ids).logits
        got = ref(input_ids=ids).logits
    result["refMaxAbsDiff"] = (got - expected).abs().max().item()

    # The optimizer digest of sharded state survives a DCP save/load (what accelerate's FSDP2 checkpoint uses).
    model, opt = _sharded_adamw(0)
    _step(model, opt)
    saved = checkpoints.optimizer_digest(opt.state_dict())
    dcp.save({"optim": get_optimizer_state_dict(model, opt)}, checkpoint_id=str(out / "ckpt"))
    fresh, fresh_opt = _sharded_adamw(1)
    _step(fresh, fresh_opt)   # a different state, to be overwritten by the load
    before = checkpoints.optimizer_digest(fresh_opt.state_dict())
    state = {"optim": get_optimizer_state_dict(fresh, fresh_opt)}
    dcp.load(state, checkpoint_id=str(out / "ckpt"))
    set_optimizer_state_dict(fresh, fresh_opt, optim_state_dict=state["optim"])
    result |= {"saved": saved, "beforeLoad": before, "restored": checkpoints.optimizer_digest(fresh_opt.state_dict()),
               "optimizerSharded": all(hasattr(v, "to_local") for s in opt.state_dict()["state"].values()
                                       for k, v in s.items() if k != "step")}
    (out / f"rank{rank}.json").write_text(json.dumps(result))
    dist.destroy_process_group()


if __name__ == "__main__":
    faulthandler.enable()   # an abort anywhere prints where each thread was
    main(Path(sys.argv[1]), Path(sys.argv[2]))
    # Skip interpreter finalisation, where gloo's threads can abort the process ("terminate called without an active
    # exception", pytorch/pytorch#65237). Rank 0 aborted so once in CI, at a point its output did not show (the
    # faulthandler above will); everything this worker checks is written and the process group destroyed by now.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
