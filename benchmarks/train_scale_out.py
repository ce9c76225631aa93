"""Multi-GPU TrainRuns through `kernelgen train run` (the pod's code path: torchrun / `accelerate launch` relaunch).

Experiments (random-init models from configs, SmolLM2's tokenizer, synthetic data; nothing is downloaded):
- ``dp1``, ``dp1-noliger``, ``dp2``, ``dp4``: data-parallel SFT of the Qwen3-0.6B shape on 1, 2 and 4 GPUs,
  seq 2048 (packed), 8 rows per GPU, no gradient accumulation (weak scaling), activation checkpointing off;
  ``dp1-noliger`` the same with Liger's kernels off;
- ``nodes2x2``: ``dp4`` launched as 2 "nodes" x 2 processes, each node started as the operator's Indexed Job
  starts a pod (NNODES=2, NPROC_PER_NODE=2, JOB_COMPLETION_INDEX, MASTER_ADDR/MASTER_PORT), on one host;
- ``resume2``: FSDP2 (configs/fsdp.yaml) SFT of the 0.6B shape on 2 GPUs, killed (SIGKILL) once checkpoint-3
  is complete, run again (resumes), then its exported full state dict loaded by transformers on one GPU;
- ``sft8b``, ``dpo8b``: FSDP2 full fine-tuning (SFT, DPO) of the Qwen3-8B shape at seq 4096 on 4 GPUs;
  ``dpo8b-b2`` and ``dpo8b-b4`` with 2 and 4 pairs per GPU, ``dpo8b-noac`` with FSDP's activation
  checkpointing off (through the spec's ``extra.activation_checkpointing: false``), ``dpo8b-b2-noac`` both
  (2 pairs, checkpointing off); ``dpo8b-more`` runs ``dpo8b-b2-noac`` where
  the GPUs have 120 GiB or more, else ``dpo8b-noac`` again (a second measurement of the same setting), or, if
  ``dpo8b-noac`` ran out of memory, ``dpo8b-noac`` with PyTorch's expandable segments (less fragmentation).

Tokens/s is the median of the runner's own per-step `kernelgen-progress` figures (global, all ranks) after the
first 5 steps; MFU as in benchmarks/train_throughput.py (PaLM accounting, 989 TFLOP/s dense bf16 per GPU).

    python benchmarks/train_scale_out.py --root /tmp/tso --tokenizer DIR --out results.jsonl dp1,dp2,dp4
    python benchmarks/train_scale_out.py --cpu --root /tmp/tso --tokenizer DIR dp1,dp2,nodes2x2   # CPU dry run
On the lent GPU machine: benchmarks/train_scale_out_gpu.sh (installs the carried wheels first).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).parent))
from train_throughput import PEAK_TFLOPS, SHAPES, flops_per_token  # noqa: E402

SHAPES = dict(SHAPES)
SHAPES["qwen3-8b"] = dict(model_type="qwen3", hidden_size=4096, intermediate_size=12288, num_hidden_layers=36,
                          num_attention_heads=32, num_key_value_heads=8, head_dim=128, vocab_size=151936,
                          max_position_embeddings=40960, rope_theta=1_000_000.0, rms_norm_eps=1e-6,
                          tie_word_embeddings=False)
WARMUP_STEPS = 5
# Options that only measure: no checkpoints, no export, every step logged, dense packed rows.
MEASURE = {"loggingSteps": 1, "export": False, "save_strategy": "no"}
PACKED = {"packing_strategy": "wrapped", "padding_free": False}


def _words(tok, limit: int = 4000) -> list[str]:
    from train_throughput import _single_token_words

    return _single_token_words(tok, limit)


def prepare(root: Path, tokenizer: str, shapes: list[str], cpu: bool) -> None:
    """Model folders (random init, bf16) and datasets under `root`."""
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(tokenizer)
    tok.pad_token = tok.pad_token or tok.eos_token
    for name in shapes:
        out = root / "models" / name
        if (out / "config.json").exists():
            continue
        config = AutoConfig.for_model(**SHAPES[name])
        config.pad_token_id, config.bos_token_id, config.eos_token_id = tok.pad_token_id, tok.bos_token_id, tok.eos_token_id
        torch.manual_seed(0)
        t0 = time.time()
        with torch.device("cpu" if cpu else "cuda"):
            model = AutoModelForCausalLM.from_config(config, dtype=torch.float32 if cpu else torch.bfloat16)
        model.save_pretrained(out)
        tok.save_pretrained(out)
        del model
        if not cpu:
            torch.cuda.empty_cache()   # the runs need GPU 0's memory back
        print(f"prepared {name} in {time.time() - t0:.0f}s", flush=True)
    words = _words(tok)
    rng = random.Random(0)

    def text(n: int) -> str:
        return "".join(rng.choice(words) for _ in range(n)).strip()

    def write(name: str, rows: list[dict]) -> None:
        folder = root / "data" / name
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / "data.jsonl", "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")

    scale = 0.05 if cpu else 1.0   # a CPU dry run needs only a few short records
    for seq, count in ((2048, 700), (4096, 160)):
        if not (root / "data" / f"sft-{seq}").exists():
            write(f"sft-{seq}", [{"messages": [
                {"role": "user", "content": text(max(8, int(seq * 0.1 * scale)))},
                {"role": "assistant", "content": text(max(8, int(rng.randint(seq * 3 // 8, seq * 3 // 4) * scale)))}]}
                for _ in range(max(16, int(count * scale)))])
    if not (root / "data" / "dpo-4096").exists():
        p, c = (10, 40) if cpu else (900, 3000)   # a pair fits max_length (128 on CPU, 4096 on GPUs)
        write("dpo-4096", [{"prompt": text(p), "chosen": text(c), "rejected": text(c)} for _ in range(96)])


def spec(name: str, method: str, model: str, data: str, root: Path, hp: dict, checkpoint: dict | None = None,
         peft: dict | None = None) -> Path:
    path = root / "specs" / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    body = {"method": method, "model": {"uri": str(root / "models" / model)},
            "dataset": {"uri": str(root / "data" / data)}, "peft": peft or {"method": "none"},
            "hyperparameters": {"learningRate": 1e-5, "lrScheduler": "constant", "warmupRatio": 0.0, **hp},
            "checkpoint": checkpoint or {"saveSteps": 100000}, "output": {"uri": str(root / "runs")}}
    path.write_text(yaml.safe_dump({"apiVersion": "kernelgen.ai/v1alpha1", "kind": "TrainRun",
                                    "metadata": {"name": name}, "spec": body}))
    return path


def _env(root: Path, name: str, gpus: str | None, cpu: bool, **extra: str) -> dict:
    env = dict(os.environ, KERNELGEN_WORKDIR=str(root / "work" / name), HF_HUB_OFFLINE="1",
               TOKENIZERS_PARALLELISM="false", PYTHONUNBUFFERED="1")
    for key in ("RANK", "LOCAL_RANK", "WORLD_SIZE", "NNODES", "NODE_RANK", "JOB_COMPLETION_INDEX",
                "KERNELGEN_ACCELERATE_CONFIG", "NPROC_PER_NODE"):
        env.pop(key, None)
    if cpu:
        env["KERNELGEN_DEVICE"] = "cpu"
    elif gpus is not None:
        env["CUDA_VISIBLE_DEVICES"] = gpus
    env.update(extra)
    return env


def _cmd(spec_file: Path) -> list[str]:
    return [sys.executable, "-m", "kernelgen.cli.main", "train", "run", "-f", str(spec_file)]


STARTED: list[subprocess.Popen] = []


def _terminate(signum, frame) -> None:  # noqa: ANN001 - signal handler
    """Runs start their own process sessions: take them down with us when the caller's time limit hits."""
    for proc in STARTED:
        if proc.poll() is None:
            _kill_tree(proc)
    raise SystemExit(128 + signum)


def _start(root: Path, name: str, spec_file: Path, env: dict, tag: str = "") -> tuple[subprocess.Popen, Path]:
    log = root / "logs" / f"{name}{tag}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen(_cmd(spec_file), env=env, stdout=open(log, "w"), stderr=subprocess.STDOUT,
                            start_new_session=True)
    STARTED.append(proc)
    return proc, log


def _kill_tree(proc: subprocess.Popen) -> None:
    """SIGKILL a run and every process under it, as a pod's deletion does. Killing the process group is not
    enough: torchrun's agent starts its workers in sessions of their own."""
    import psutil

    try:
        family = psutil.Process(proc.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        family = []
    for p in family:
        try:
            p.kill()
        except psutil.NoSuchProcess:
            pass
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    psutil.wait_procs(family, timeout=30)


def _wait(proc: subprocess.Popen, timeout: float) -> int:
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_tree(proc)
        return -9


def _progress(log: Path) -> list[dict]:
    out = []
    for line in log.read_text(errors="replace").splitlines():
        if "kernelgen-progress " in line:
            try:
                out.append(json.loads(line.split("kernelgen-progress ", 1)[1]))
            except ValueError:
                pass
    return out


def measure(name: str, root: Path, log: Path, rc: int, world: int, shape: str, seq: int, mode: str) -> dict:
    """Throughput, MFU and peak memory of a finished run, from its log and train-summary.json."""
    res: dict = {"experiment": name, "rc": rc, "world": world, "shape": shape, "seq": seq, "mode": mode}
    entries = _progress(log)
    steps = [e for e in entries if "tokensPerSecond" in e and e["step"] > WARMUP_STEPS]
    summary_file = root / "runs" / name / "train-summary.json"
    if summary_file.exists():
        summary = json.loads(summary_file.read_text())
        res |= {"fastPath": summary.get("fastPath"), "fsdp": summary.get("fsdp"), "steps": summary["globalStep"],
                "resume": summary.get("resume"), "seconds": summary["seconds"],
                "trainBatch": summary["trlConfig"].get("per_device_train_batch_size"),
                "gradAccum": summary["trlConfig"].get("gradient_accumulation_steps")}
    if steps:
        tps = statistics.median(e["tokensPerSecond"] for e in steps)
        from transformers import AutoConfig

        config = AutoConfig.from_pretrained(root / "models" / shape)
        shp = SHAPES[shape]
        h, i, v = shp["hidden_size"], shp["intermediate_size"], shp["vocab_size"]
        a, kv = shp["num_attention_heads"] * shp["head_dim"], shp["num_key_value_heads"] * shp["head_dim"]
        n_matmul = shp["num_hidden_layers"] * (h * (2 * a + 2 * kv) + 3 * h * i) + h * v
        assert config.hidden_size == h
        fpt = flops_per_token(n_matmul, shp, seq, mode)
        res |= {"tokensPerSecond": round(tps), "tokensPerSecondPerGpu": round(tps / world),
                "mfu": round(tps * fpt / (PEAK_TFLOPS * 1e12 * world), 4), "measuredSteps": len(steps),
                "peakMemGiB": max((e.get("peakMemGiB") or 0) for e in entries) or None,
                "losses": [e["loss"] for e in entries if "loss" in e][:3] + ["..."] + [e["loss"] for e in entries if "loss" in e][-2:]}
    else:
        text = log.read_text(errors="replace")
        res["error"] = "\n".join(text.splitlines()[-25:])
        res["outOfMemory"] = "out of memory" in text.lower()
    return res


# SFT of the 0.6B shape, data parallel: hyperparameters shared by dp* and nodes2x2.
def _dp_hp(cpu: bool, liger: bool = True) -> dict:
    extra = dict(MEASURE, **PACKED, activation_checkpointing=False)
    if not liger:
        extra["use_liger_kernel"] = False
    return {"maxSteps": 8 if cpu else 30, "perDeviceBatchSize": 2 if cpu else 8, "maxLength": 128 if cpu else 2048,
            "packing": True, "gradientAccumulationSteps": 1, "extra": extra}


def run_dp(root: Path, name: str, gpus: str, world: int, cpu: bool, liger: bool = True, timeout: float = 200):
    shape, seq = ("tiny", 128) if cpu else ("qwen3-0.6b", 2048)
    f = spec(name, "SFT", shape, f"sft-{2048}", root, _dp_hp(cpu, liger))
    env = _env(root, name, gpus, cpu, NPROC_PER_NODE=str(world))
    proc, log = _start(root, name, f, env)
    return lambda: measure(name, root, log, _wait(proc, timeout), world, shape, seq, "sft")


def run_default(root: Path, name: str, gpus: str, cpu: bool, timeout: float = 200):
    """1 GPU, the runner's defaults for everything but the measuring options (activation checkpointing on)."""
    shape, seq = ("tiny", 128) if cpu else ("qwen3-0.6b", 2048)
    hp = _dp_hp(cpu)
    hp["extra"].pop("activation_checkpointing")
    f = spec(name, "SFT", shape, "sft-2048", root, hp)
    proc, log = _start(root, name, f, _env(root, name, gpus, cpu, NPROC_PER_NODE="1"))
    return lambda: measure(name, root, log, _wait(proc, timeout), 1, shape, seq, "sft")


def run_parity(root: Path, name: str, gpus: str, fsdp_on: bool, cpu: bool, port: int, timeout: float = 200):
    """2 GPUs, 10 steps at a learning rate that moves the loss: FSDP2 and DDP runs of the same data and init
    must follow the same loss curve (bf16 compute, fp32 master weights in both)."""
    shape = "tiny" if cpu else "qwen3-0.6b"
    hp = {"maxSteps": 10, "perDeviceBatchSize": 2 if cpu else 4, "maxLength": 128 if cpu else 2048, "packing": True,
          "gradientAccumulationSteps": 1, "learningRate": 3e-4,
          "extra": dict(MEASURE, **PACKED, activation_checkpointing=False)}
    f = spec(name, "SFT", shape, "sft-2048", root, hp)
    extra = {"KERNELGEN_ACCELERATE_CONFIG": "fsdp"} if fsdp_on and not cpu else {}
    proc, log = _start(root, name, f, _env(root, name, gpus, cpu, NPROC_PER_NODE="2", MASTER_PORT=str(port), **extra))

    def finish() -> dict:
        rc = _wait(proc, timeout)
        return {"experiment": name, "rc": rc, "fsdp": fsdp_on,
                "losses": {e["step"]: e["loss"] for e in _progress(log) if "loss" in e}}
    return finish


def run_nodes(root: Path, name: str, cpu: bool, port: int, timeout: float = 200):
    """2 'nodes' x (2 GPUs, or 1 CPU process), each started with the env the operator gives a pod."""
    shape, seq = ("tiny", 128) if cpu else ("qwen3-0.6b", 2048)
    per_node = 1 if cpu else 2
    f = spec(name, "SFT", shape, "sft-2048", root, _dp_hp(cpu))
    procs = []
    for index, gpus in enumerate(("0,1", "2,3")):
        env = _env(root, f"{name}-node{index}", gpus, cpu, NNODES="2", NPROC_PER_NODE=str(per_node),
                   JOB_COMPLETION_INDEX=str(index), MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
        procs.append(_start(root, name, f, env, tag=f"-node{index}"))

    def finish() -> dict:
        rcs = [_wait(p, timeout) for p, _ in procs]
        res = measure(name, root, procs[0][1], max(rcs, key=abs), 2 * per_node, shape, seq, "sft")
        launch = [l for l in procs[1][1].read_text().splitlines() if l.startswith("launching")]
        res["node1Launch"] = launch[0] if launch else None
        return res
    return finish


def run_resume(root: Path, name: str, gpus: str, cpu: bool, timeout: float = 200) -> dict:
    """FSDP2 on 2 GPUs: kill after the first complete checkpoint, resume, load the export on one GPU."""
    from kernelgen.train import checkpoints

    shape = "tiny" if cpu else "qwen3-0.6b"
    f = spec(name, "SFT", shape, "sft-2048", root,
             {"maxSteps": 6, "perDeviceBatchSize": 2 if cpu else 4, "maxLength": 128 if cpu else 2048,
              "packing": True, "gradientAccumulationSteps": 1, "extra": {"loggingSteps": 1, **PACKED}},
             checkpoint={"saveSteps": 3, "keep": 2})
    ckpt_uri = str(root / "runs" / name / "checkpoints")
    extra = {} if cpu else {"KERNELGEN_ACCELERATE_CONFIG": "fsdp"}
    proc, log1 = _start(root, name, f, _env(root, name, gpus, cpu, NPROC_PER_NODE="2", MASTER_PORT="29531", **extra),
                        tag="-killed")
    t0, res = time.time(), {"experiment": name}
    while not checkpoints.complete_checkpoints(ckpt_uri):
        if proc.poll() is not None or time.time() - t0 > timeout:
            _wait(proc, 0)
            return res | {"error": "no checkpoint before exit/timeout:\n" + "\n".join(
                log1.read_text(errors="replace").splitlines()[-30:])}
        time.sleep(0.2)
    _kill_tree(proc)
    res["killedAfter"] = checkpoints.latest(ckpt_uri)
    res["killedLastLoggedStep"] = max((e["step"] for e in _progress(log1)), default=None)
    proc, log2 = _start(root, name, f, _env(root, name + "-restarted", gpus, cpu, NPROC_PER_NODE="2",
                                            MASTER_PORT="29532", **extra), tag="-resumed")
    rc = _wait(proc, timeout)
    res |= measure(name, root, log2, rc, 2, shape, 2048, "sft")
    resume = res.get("resume") or {}
    res["digestMatches"] = bool(resume.get("optimizerDigest")) and \
        resume.get("optimizerDigest") == resume.get("savedOptimizerDigest")
    res["checkpointFiles"] = sorted(p.name for p in (Path(ckpt_uri) / res["killedAfter"][1]).iterdir()) \
        if res.get("killedAfter") and (Path(ckpt_uri) / res["killedAfter"][1]).is_dir() else None
    res["export"] = check_export(root / "runs" / name / "model", root / "models" / shape, cpu)
    return res


def check_export(model_dir: Path, init_dir: Path, cpu: bool) -> dict:
    """The exported model loads with plain transformers on one device, gives a finite loss, and differs from init."""
    import torch
    from transformers import AutoModelForCausalLM

    if not (model_dir / "config.json").exists():
        return {"error": f"no export at {model_dir}"}
    device = "cpu" if cpu else "cuda:0"
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.bfloat16).to(device)
    init = AutoModelForCausalLM.from_pretrained(init_dir, dtype=torch.bfloat16)
    ids = torch.randint(1000, 40000, (1, 256), generator=torch.Generator().manual_seed(0)).to(device)
    with torch.no_grad():
        loss = model(input_ids=ids, labels=ids).loss.item()
    changed = sum(not torch.equal(p.cpu(), q) for (_, p), (_, q) in zip(model.state_dict().items(),
                                                                         init.state_dict().items()))
    return {"loads": True, "device": device, "params": sum(p.numel() for p in model.parameters()),
            "tensorsChangedByTraining": changed, "tensors": len(init.state_dict()), "loss": round(loss, 4),
            "files": sorted(p.name for p in model_dir.iterdir())}


def run_8b(root: Path, name: str, cpu: bool, timeout: float = 420, **over) -> dict:
    """FSDP2 on 4 GPUs (2 CPU processes in a dry run). `over`: batch (rows or pairs per GPU), ac (False: FSDP's
    activation checkpointing off through the spec), peft."""
    shape = "tiny" if cpu else "qwen3-8b"
    seq = 128 if cpu else 4096
    mode = "dpo" if name.startswith("dpo") else "sft"
    if mode == "sft":
        hp = {"maxSteps": 12, "perDeviceBatchSize": over.get("batch", 2), "maxLength": seq, "packing": True,
              "gradientAccumulationSteps": 1, "extra": dict(MEASURE, **PACKED)}
        f = spec(name, "SFT", shape, "sft-4096", root, hp, peft=over.get("peft"))
    else:
        hp = {"maxSteps": 10, "perDeviceBatchSize": over.get("batch", 1), "maxLength": seq,
              "gradientAccumulationSteps": 1, "extra": dict(MEASURE)}
        if "ac" in over:
            hp["extra"]["activation_checkpointing"] = over["ac"]
        f = spec(name, "DPO", shape, "dpo-4096", root, hp, peft=over.get("peft"))
    extra = ({} if cpu else {"KERNELGEN_ACCELERATE_CONFIG": "fsdp"}) | over.get("env", {})
    proc, log = _start(root, name, f, _env(root, name, None, cpu, NPROC_PER_NODE="2" if cpu else "4",
                                           MASTER_PORT="29541", **extra))
    return measure(name, root, log, _wait(proc, timeout), 2 if cpu else 4, shape, seq, mode)


def gpu_gib() -> float:
    """Memory of GPU 0 in GiB (0 without GPUs), from nvidia-smi: this process keeps no CUDA context."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=memory.total", "--format=csv,noheader,nounits"],
                             capture_output=True, text=True, timeout=30).stdout.split()
        return float(out[0]) / 1024 if out else 0.0
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("experiments", help="comma-separated: dp124 (dp1 | dp1-noliger | dp2), dp4, nodes2x2, "
                                        "resume2, sft8b, dpo8b, dpo8b-b2, dpo8b-b4, dpo8b-noac, dpo8b-b2-noac, "
                                        "dpo8b-more, "
                                        "sft8b-lora, dpo8b-lora")
    ap.add_argument("--root", type=Path, required=True)
    ap.add_argument("--tokenizer", required=True)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--cpu", action="store_true", help="dry run of the orchestration on CPU with a tiny model")
    a = ap.parse_args()
    signal.signal(signal.SIGTERM, _terminate)
    todo = a.experiments.split(",")
    shapes = ["tiny"] if a.cpu else (["qwen3-0.6b"] if not all("8b" in t for t in todo) else []) + \
        (["qwen3-8b"] if any("8b" in t for t in todo) else [])
    if a.cpu:
        prepare(a.root, a.tokenizer, shapes, a.cpu)
    else:   # in a child process, so that this one holds no CUDA context (memory) on GPU 0 during the runs
        import multiprocessing

        child = multiprocessing.get_context("spawn").Process(target=prepare, args=(a.root, a.tokenizer, shapes, False))
        child.start()
        child.join()
        if child.exitcode:
            raise SystemExit(f"prepare failed ({child.exitcode})")
    results = []
    done: dict[str, dict] = {}

    def emit(res: dict) -> None:
        results.append(res)
        done[res.get("experiment", "?")] = res
        print("RESULT " + json.dumps(res), flush=True)
        if a.out:
            with open(a.out, "a") as f:
                f.write(json.dumps(res) + "\n")

    for t in todo:
        t0 = time.time()
        if t == "dp124":   # dp1, dp1-noliger and dp2 side by side on GPUs 0 | 1 | 2,3
            runs = [run_dp(a.root, "dp1", "0", 1, a.cpu), run_dp(a.root, "dp1-noliger", "1", 1, a.cpu, liger=False),
                    run_dp(a.root, "dp2", "2,3", 2, a.cpu)]
            for finish in runs:
                emit(finish())
        elif t == "dp1x3":   # the 1-GPU settings side by side on GPUs 0 | 1 | 2
            runs = [run_dp(a.root, "dp1", "0", 1, a.cpu), run_default(a.root, "dp1-default", "1", a.cpu),
                    run_dp(a.root, "dp1-noliger", "2", 1, a.cpu, liger=False)]
            for finish in runs:
                emit(finish())
        elif t == "resume2":
            emit(run_resume(a.root, "resume2", "0,1", a.cpu))
        elif t == "resume2+default":   # FSDP2 resume on GPUs 0,1 while the 1-GPU default-settings run uses GPU 2
            default = run_default(a.root, "dp1-default", "2", a.cpu)
            emit(run_resume(a.root, "resume2", "0,1", a.cpu))
            emit(default())
        elif t == "parity":   # FSDP2 on GPUs 0,1 and DDP on GPUs 2,3, same data, same init
            runs = [run_parity(a.root, "parity-fsdp", "0,1", True, a.cpu, 29551),
                    run_parity(a.root, "parity-ddp", "2,3", False, a.cpu, 29552)]
            fs, dd = (finish() for finish in runs)
            common = sorted(set(fs["losses"]) & set(dd["losses"]))
            emit({"experiment": "parity", "fsdp": fs, "ddp": dd, "steps": len(common), "maxRelDiff": max(
                (abs(fs["losses"][k] - dd["losses"][k]) / abs(dd["losses"][k]) for k in common), default=None)})
        elif t == "dp4":
            emit(run_dp(a.root, "dp4", "0,1,2,3", 4, a.cpu)())
        elif t == "nodes2x2":
            emit(run_nodes(a.root, "nodes2x2", a.cpu, 29521)())
        elif t in ("sft8b", "dpo8b"):
            emit(run_8b(a.root, t, a.cpu, timeout=200 if t == "sft8b" else 150))
        elif t == "sft8b-b4":
            emit(run_8b(a.root, t, a.cpu, timeout=200, batch=4))
        elif t == "dpo8b-b2":
            emit(run_8b(a.root, t, a.cpu, timeout=150, batch=2))
        elif t == "dpo8b-b4":
            emit(run_8b(a.root, t, a.cpu, timeout=200, batch=4))
        elif t == "dpo8b-noac":
            emit(run_8b(a.root, t, a.cpu, timeout=150, ac=False))
        elif t == "dpo8b-b2-noac" or (t == "dpo8b-more" and gpu_gib() >= 120):
            emit(run_8b(a.root, "dpo8b-b2-noac", a.cpu, timeout=150, batch=2, ac=False))
        elif t == "dpo8b-more" and done.get("dpo8b-noac", {}).get("outOfMemory"):
            emit(run_8b(a.root, "dpo8b-noac-expseg", a.cpu, timeout=150, ac=False,
                        env={"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"}))
        elif t == "dpo8b-more":
            emit(run_8b(a.root, "dpo8b-noac-again", a.cpu, timeout=150, ac=False))
        elif t in ("sft8b-lora", "dpo8b-lora"):
            emit(run_8b(a.root, t, a.cpu, peft={"method": "lora", "r": 16, "alpha": 32, "dropout": 0.0}))
        else:
            raise SystemExit(f"unknown experiment {t}")
        print(f"== {t} took {time.time() - t0:.0f}s", flush=True)
    print(f"\n{'experiment':14} {'world':>5} {'tok/s':>9} {'tok/s/GPU':>9} {'MFU':>6} {'peak GiB':>8}  fast path")
    for r in results:
        if "tokensPerSecond" in r:
            print(f"{r['experiment']:14} {r['world']:>5} {r['tokensPerSecond']:>9} {r['tokensPerSecondPerGpu']:>9} "
                  f"{r['mfu']:>6.1%} {str(r.get('peakMemGiB')):>8}  {(r.get('fastPath') or {}).get('use_liger_kernel')}")
        elif r.get("experiment") == "parity":
            print(f"{'parity':14} FSDP2 vs DDP loss, {r['steps']} steps: max relative difference {r['maxRelDiff']}")
        else:
            print(f"{r.get('experiment', '?'):14} ERROR {str(r.get('error', ''))[-300:]}")


if __name__ == "__main__":
    main()
