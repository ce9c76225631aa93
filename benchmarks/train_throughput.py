"""SFT and DPO training throughput (tokens/s) and MFU with trl, as `kernelgen train` configures it.

Models (random init, so no download is needed; throughput does not depend on the weights):
- ``qwen3-0.6b``: the Qwen3-0.6B shape (28 layers, hidden 1024, 16/8 heads, head_dim 128, vocab 151936, tied);
- ``smollm2``: the SmolLM2-135M shape (30 layers, hidden 576, 9/3 heads, vocab 49152, tied).
Data: random token sequences. SFT packs them into rows of exactly `seq` tokens (trl packing, ``wrapped``
strategy, so every row is dense and attention stays plain causal); DPO pairs have a prompt of seq/4 tokens and
chosen/rejected completions of 3*seq/4, so each of the two sequences is exactly `seq` tokens (no padding).

MFU = model FLOPs per second / peak (989 TFLOP/s, H100/H200 dense bf16). Model FLOPs per token, PaLM-style
(appendix B of Chowdhery et al. 2022), N = parameters of all matmuls (lm_head included, embedding lookup not),
L layers, A = heads*head_dim, S = sequence length:
- SFT: 6*N + 12*L*A*S  (forward + backward);
- DPO: 8*N + 16*L*A*S per token of chosen and rejected (policy forward + backward, reference forward).
Activation recomputation is not counted as useful work.

Usage (each variant runs in its own process; prints a table and one JSON line per variant):
    python benchmarks/train_throughput.py --variants sft-qwen-compile,dpo-qwen-compile
    python benchmarks/train_throughput.py --list
    python benchmarks/train_throughput.py --variants sft-tiny-cpu   # CPU dry run of the code path
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import subprocess
import sys
import time
from pathlib import Path

PEAK_TFLOPS = 989.0

SHAPES = {
    "qwen3-0.6b": dict(model_type="qwen3", hidden_size=1024, intermediate_size=3072, num_hidden_layers=28,
                       num_attention_heads=16, num_key_value_heads=8, head_dim=128, vocab_size=151936,
                       max_position_embeddings=40960, rope_theta=1_000_000.0, rms_norm_eps=1e-6,
                       tie_word_embeddings=True),
    "smollm2": dict(model_type="llama", hidden_size=576, intermediate_size=1536, num_hidden_layers=30,
                    num_attention_heads=9, num_key_value_heads=3, head_dim=64, vocab_size=49152,
                    max_position_embeddings=8192, rope_theta=100_000.0, rms_norm_eps=1e-5,
                    tie_word_embeddings=True),
    "tiny": dict(model_type="llama", hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                 num_attention_heads=4, num_key_value_heads=2, head_dim=16, vocab_size=49152,
                 max_position_embeddings=1024, rope_theta=10_000.0, rms_norm_eps=1e-5, tie_word_embeddings=True),
}

# name: (mode, shape, per-device batch (rows for SFT, pairs for DPO), seq, options)
# options: compile (torch.compile), liger (fused kernels incl. linear+cross-entropy), ckpt (activation
# checkpointing), amp (fp32 master weights + bf16 autocast instead of pure bf16 weights), cpu.
VARIANTS: dict[str, tuple[str, str, int, int, tuple[str, ...]]] = {
    "sft-qwen-eager": ("sft", "qwen3-0.6b", 8, 2048, ()),
    "sft-qwen-amp": ("sft", "qwen3-0.6b", 8, 2048, ("amp", "liger")),
    "sft-qwen-liger": ("sft", "qwen3-0.6b", 16, 2048, ("liger",)),
    "sft-qwen-compile": ("sft", "qwen3-0.6b", 16, 2048, ("liger", "compile")),
    "sft-qwen-compile-b8": ("sft", "qwen3-0.6b", 8, 2048, ("liger", "compile")),
    "dpo-qwen-liger": ("dpo", "qwen3-0.6b", 8, 2048, ("liger",)),
    "dpo-qwen-compile": ("dpo", "qwen3-0.6b", 8, 2048, ("liger", "compile")),
    "dpo-qwen-eager": ("dpo", "qwen3-0.6b", 4, 2048, ()),
    "sft-smol-compile": ("sft", "smollm2", 16, 2048, ("liger", "compile")),
    "sft-smol-liger": ("sft", "smollm2", 16, 2048, ("liger",)),
    "dpo-smol-compile": ("dpo", "smollm2", 8, 2048, ("liger", "compile")),
    "dpo-smol-liger": ("dpo", "smollm2", 8, 2048, ("liger",)),
    "dpo-qwen-amp": ("dpo", "qwen3-0.6b", 8, 2048, ("amp", "liger")),
    "sft-smol-liger-b32": ("sft", "smollm2", 32, 2048, ("liger",)),
    "dpo-smol-liger-b16": ("dpo", "smollm2", 16, 2048, ("liger",)),
    "sft-tiny-cpu": ("sft", "tiny", 2, 128, ("cpu", "amp")),
    "dpo-tiny-cpu": ("dpo", "tiny", 2, 128, ("cpu", "amp")),
}


def flops_per_token(n_matmul: int, shape: dict, seq: int, mode: str) -> float:
    attn = shape["num_hidden_layers"] * shape["num_attention_heads"] * shape["head_dim"] * seq
    return 6 * n_matmul + 12 * attn if mode == "sft" else 8 * n_matmul + 16 * attn


def _tokenizer():
    """A tokenizer for pad/eos ids (and for DPO, which tokenizes text): SmolLM2's, from the cached checkpoint
    or from KERNELGEN_BENCH_TOKENIZER (a folder carried to the GPU machine)."""
    from transformers import AutoTokenizer

    folder = os.environ.get("KERNELGEN_BENCH_TOKENIZER")
    if not folder:
        from kernelgen.train.models import hf_checkpoint

        folder = str(hf_checkpoint("smollm2"))
    tok = AutoTokenizer.from_pretrained(folder)
    tok.pad_token = tok.pad_token or tok.eos_token
    return tok


def _single_token_words(tok, limit: int = 4000) -> list[str]:
    """Words that stay exactly one token wherever they appear after a space (so text lengths are exact)."""
    words = []
    for i in range(1000, tok.vocab_size):
        w = tok.decode([i])
        if w.startswith(" ") and w[1:].isalpha() and tok(w, add_special_tokens=False)["input_ids"] == [i]:
            words.append(w)
            if len(words) >= limit:
                break
    return words


def run_variant(name: str, steps: int, warmup: int) -> dict:
    import random

    import torch
    from datasets import Dataset
    from transformers import AutoConfig, AutoModelForCausalLM, TrainerCallback

    mode, shape_name, batch, seq, opts = VARIANTS[name]
    shape = dict(SHAPES[shape_name])
    cpu = "cpu" in opts
    device = "cpu" if cpu else "cuda"
    amp = "amp" in opts
    tok = _tokenizer()
    config = AutoConfig.for_model(**shape)
    config.pad_token_id = tok.pad_token_id
    torch.manual_seed(0)
    with torch.device(device):
        model = AutoModelForCausalLM.from_config(config, dtype=torch.float32 if amp else torch.bfloat16,
                                                 attn_implementation="sdpa")
    n_matmul = sum(m.weight.numel() for m in model.modules() if isinstance(m, torch.nn.Linear))
    n_params = sum(p.numel() for p in model.parameters())
    rng = random.Random(0)
    total = steps + warmup
    common = dict(output_dir=f"/tmp/kg-bench/{name}", max_steps=total, per_device_train_batch_size=batch,
                  gradient_accumulation_steps=1, learning_rate=1e-5, lr_scheduler_type="constant", max_length=seq,
                  logging_steps=10_000, save_strategy="no", report_to="none", seed=0, use_cpu=cpu,
                  bf16=amp and not cpu, torch_compile="compile" in opts,
                  use_liger_kernel="liger" in opts, dataloader_num_workers=2 if not cpu else 0,
                  dataloader_pin_memory=not cpu, remove_unused_columns=True)
    # transformers >= 5.24 renamed gradient_checkpointing to activation_checkpointing.
    from transformers import TrainingArguments

    ckpt_field = ("activation_checkpointing" if "activation_checkpointing" in TrainingArguments.__dataclass_fields__
                  else "gradient_checkpointing")
    common[ckpt_field] = "ckpt" in opts
    if mode == "sft":
        from trl import SFTConfig, SFTTrainer

        # Documents of random lengths, packed end to end into rows of exactly `seq` tokens.
        needed, docs = total * batch * seq + seq, []
        while needed > 0:
            n = rng.randint(seq // 8, 2 * seq)
            docs.append({"input_ids": [rng.randrange(1000, shape["vocab_size"]) for _ in range(n)]})
            needed -= n
        args = SFTConfig(packing=True, packing_strategy="wrapped", padding_free=False, **common)
        trainer = SFTTrainer(model=model, args=args, train_dataset=Dataset.from_list(docs), processing_class=tok)
        tokens_per_step = batch * seq
    else:
        from trl import DPOConfig, DPOTrainer

        words = _single_token_words(tok)
        p_len, c_len = seq // 4, seq - seq // 4 - 1   # the trainer appends EOS to each completion

        def text(n: int) -> str:
            return "".join(rng.choice(words) for _ in range(n))

        rows = [{"prompt": text(p_len), "chosen": text(c_len), "rejected": text(c_len)} for _ in range(total * batch)]
        args = DPOConfig(beta=0.1, **common)
        # A random-init model has no name to reload the reference from: pass a frozen copy.
        ref = copy.deepcopy(model).eval().requires_grad_(False)
        trainer = DPOTrainer(model=model, ref_model=ref, args=args, train_dataset=Dataset.from_list(rows),
                             processing_class=tok)
        ds = trainer.train_dataset
        lens = [min(len(p) + len(c), seq) + min(len(p) + len(r), seq)
                for p, c, r in zip(ds["prompt_ids"], ds["chosen_ids"], ds["rejected_ids"])]
        tokens_per_step = batch * sum(lens) / len(lens)

    times: list[float] = []

    class Timer(TrainerCallback):
        def on_step_begin(self, args, state, control, **kw):
            if not cpu:
                torch.cuda.synchronize()
            self.t = time.perf_counter()

        def on_step_end(self, args, state, control, **kw):
            if not cpu:
                torch.cuda.synchronize()
            times.append(time.perf_counter() - self.t)

    trainer.add_callback(Timer())
    if not cpu:
        torch.cuda.reset_peak_memory_stats()
    t0 = time.perf_counter()
    trainer.train()
    wall = time.perf_counter() - t0
    measured = sorted(times[warmup:])
    median = measured[len(measured) // 2]
    tps = tokens_per_step / median
    fpt = flops_per_token(n_matmul, shape, seq, mode)
    return {
        "variant": name, "mode": mode, "model": shape_name, "params": n_params, "matmulParams": n_matmul,
        "batch": batch, "seq": seq, "options": list(opts), "dtype": "fp32+bf16-autocast" if amp else "bf16",
        "steps": len(measured), "stepMedianS": round(median, 4), "stepMinS": round(measured[0], 4),
        "tokensPerStep": tokens_per_step, "tokensPerSecond": round(tps), "tflopsPerSecond": round(tps * fpt / 1e12, 1),
        "mfu": round(tps * fpt / (PEAK_TFLOPS * 1e12), 4), "flopsPerToken": fpt,
        "peakMemGiB": None if cpu else round(torch.cuda.max_memory_allocated() / 2**30, 1),
        "gpu": None if cpu else torch.cuda.get_device_name(), "wallS": round(wall, 1),
        "versions": _versions(),
    }


def _versions() -> dict:
    import importlib.metadata as md

    out = {}
    for pkg in ("torch", "transformers", "trl", "liger-kernel", "datasets"):
        try:
            out[pkg] = md.version(pkg)
        except md.PackageNotFoundError:
            out[pkg] = None
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variants", default="sft-qwen-compile,dpo-qwen-compile,sft-smol-compile,dpo-smol-compile")
    ap.add_argument("--steps", type=int, default=8, help="measured steps per variant (median reported)")
    ap.add_argument("--warmup", type=int, default=4, help="steps left out (compilation, allocator warm-up)")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per variant")
    ap.add_argument("--out", default=None, help="append one JSON line per variant to this file")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.list:
        for k, v in VARIANTS.items():
            print(k, v)
        return
    if a.one:
        print("RESULT " + json.dumps(run_variant(a.one, a.steps, a.warmup)), flush=True)
        return
    results = []
    for name in a.variants.split(","):
        cmd = [sys.executable, __file__, "--one", name, "--steps", str(a.steps), "--warmup", str(a.warmup)]
        t0 = time.time()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
            lines = [l for l in p.stdout.splitlines() if l.startswith("RESULT ")]
            if lines:
                res = json.loads(lines[-1][7:])
            else:
                res = {"variant": name, "error": (p.stderr or p.stdout)[-1500:]}
        except subprocess.TimeoutExpired:
            res = {"variant": name, "error": f"timeout after {a.timeout}s"}
        res["processS"] = round(time.time() - t0, 1)
        results.append(res)
        print(json.dumps(res), flush=True)
        if a.out:
            with open(a.out, "a") as f:
                f.write(json.dumps(res) + "\n")
    print(f"\n{'variant':22} {'gpu':24} {'batch':>5} {'seq':>5} {'tok/s':>10} {'TFLOP/s':>8} {'MFU':>6} {'mem GiB':>8}")
    for r in results:
        if "error" in r:
            print(f"{r['variant']:22} ERROR {r['error'].splitlines()[-1] if r['error'] else ''}"[:200])
            continue
        print(f"{r['variant']:22} {str(r['gpu'])[:24]:24} {r['batch']:>5} {r['seq']:>5} {r['tokensPerSecond']:>10} "
              f"{r['tflopsPerSecond']:>8} {r['mfu']:>6.1%} {str(r['peakMemGiB']):>8}")


if __name__ == "__main__":
    main()
