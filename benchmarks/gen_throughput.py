"""Generation throughput of the `transformers` engine against plain `model.generate` (GPU).

Qwen3-0.6B-shaped model, random init, bf16, prompts of 512 tokens, 256 new tokens, greedy, EOS disabled so
every row generates all 256. For each batch size it prints decode throughput (new tokens/s over the whole
generate call, prefill included), time to first token (a generate call with one new token), and the
fraction of the memory-bandwidth roofline: the least time the call can take given the measured copy
bandwidth (every decode step reads all weights plus the live KV cache) and the measured bf16 matmul rate
(prefill), divided by the measured time.

  PYTHONPATH=jobs python benchmarks/gen_throughput.py [--batches 1,16,64,256] [--accel compile]

Variants: `plain` = model.generate with its defaults (dynamic cache, eager); `engine[graph]` = TransformersEngine's
StaticDecoder (static KV cache, decode step replayed as one CUDA graph); `engine[compile]` = model.generate with
a static cache and torch.compile (reduce-overhead); `engine[static]` = static cache, eager.
Every greedy output is checked by one teacher-forced forward pass (greedy_check).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "jobs"))

import torch
from kernelgen.generate.engine import SamplingParams
from kernelgen.generate.transformers_engine import TransformersEngine


def qwen3_06b_config():
    from transformers import Qwen3Config

    return Qwen3Config(vocab_size=151936, hidden_size=1024, intermediate_size=3072, num_hidden_layers=28,
                       num_attention_heads=16, num_key_value_heads=8, head_dim=128, max_position_embeddings=40960,
                       rope_theta=1_000_000.0, rms_norm_eps=1e-6, tie_word_embeddings=True,
                       bos_token_id=None, eos_token_id=None, pad_token_id=0)


def build_model():
    from transformers import AutoModelForCausalLM

    torch.manual_seed(0)
    cfg = qwen3_06b_config()
    with torch.device("cuda"):
        try:
            model = AutoModelForCausalLM.from_config(cfg, dtype=torch.bfloat16)
        except TypeError:
            model = AutoModelForCausalLM.from_config(cfg, torch_dtype=torch.bfloat16)
    model.eval()
    # No EOS: every row runs the full 256 steps, so token counts are exact.
    model.generation_config.eos_token_id = None
    model.generation_config.pad_token_id = 0
    return model


def sync_time(fn):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    out = fn()
    torch.cuda.synchronize()
    return time.perf_counter() - t0, out


def measure_ceilings() -> tuple[float, float]:
    """(copy bandwidth bytes/s counting read + write, bf16 matmul FLOP/s), measured with CUDA events."""
    n = 1 << 30                                   # 2 GiB of bf16 each way
    a = torch.empty(n, dtype=torch.bfloat16, device="cuda").normal_()
    b = torch.empty_like(a)
    for _ in range(3):
        b.copy_(a)
    times = []
    for _ in range(10):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); b.copy_(a); e.record(); torch.cuda.synchronize()
        times.append(s.elapsed_time(e) / 1e3)
    bw = 2 * a.numel() * 2 / sorted(times)[len(times) // 2]
    del a, b
    m = torch.randn(8192, 8192, dtype=torch.bfloat16, device="cuda")
    for _ in range(3):
        m @ m
    times = []
    for _ in range(10):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); m @ m; e.record(); torch.cuda.synchronize()
        times.append(s.elapsed_time(e) / 1e3)
    flops = 2 * 8192 ** 3 / sorted(times)[len(times) // 2]
    del m
    torch.cuda.empty_cache()
    return bw, flops


def roofline_seconds(model, batch: int, prompt: int, new: int, bw: float, flops: float) -> float:
    cfg = model.config
    weight_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
    kv_per_token = cfg.num_hidden_layers * 2 * cfg.num_key_value_heads * cfg.head_dim * 2   # bf16 K and V
    n_params = sum(p.numel() for p in model.parameters())
    prefill = max(2 * n_params * batch * prompt / flops, (weight_bytes + batch * prompt * kv_per_token) / bw)
    decode = sum((weight_bytes + batch * (prompt + t) * kv_per_token) / bw for t in range(1, new))
    return prefill + decode


def run_variant(name, gen, batch, prompt_len, new, warm: int):
    ids = torch.randint(1, 150000, (batch, prompt_len), device="cuda")
    mask = torch.ones_like(ids)
    for _ in range(warm):
        gen(ids, mask, new)
    dt, out = sync_time(lambda: gen(ids, mask, new))
    assert out.shape == (batch, new), (name, out.shape)
    ttft, _ = sync_time(lambda: gen(ids, mask, 1))
    return dt, ttft, out, ids


@torch.inference_mode()
def greedy_check(model, ids, out, rows: int = 4) -> dict:
    """Teacher-forced check of a greedy decode: one full forward over prompt + generated tokens; each generated
    token should be the argmax at its position. bf16 kernels differ between paths, so near-ties (top logit
    within 0.05 of the chosen one) are counted apart from real mismatches."""
    seq = torch.cat([ids[:rows], out[:rows]], dim=1)
    logits = model(input_ids=seq).logits[:, ids.shape[1] - 1:-1].float()
    chosen = logits.gather(-1, out[:rows, :, None]).squeeze(-1)
    top = logits.max(-1).values
    agree = (logits.argmax(-1) == out[:rows]).float().mean().item()
    real = ((top - chosen) > 0.05).float().mean().item()
    return {"argmax_agreement": round(agree, 4), "mismatch_beyond_tie": round(real, 4)}


def graph_selfcheck() -> str:
    """The CUDA-graph decode must produce exactly what the same decoder produces step by step (greedy with
    shared prompt passes, and seeded top-p sampling), on a small random model."""
    from kernelgen.generate.fastdecode import StaticDecoder
    from transformers import AutoModelForCausalLM, Qwen3Config

    torch.manual_seed(1)
    cfg = Qwen3Config(vocab_size=1000, hidden_size=128, intermediate_size=256, num_hidden_layers=3,
                      num_attention_heads=4, num_key_value_heads=2, head_dim=32, eos_token_id=None, pad_token_id=0)
    with torch.device("cuda"):
        m = AutoModelForCausalLM.from_config(cfg).eval()
    ids = torch.randint(1, 999, (3, 20), device="cuda")
    mask = torch.ones_like(ids)
    mask[0, :5] = 0
    res = []
    for temp in (0.0, 0.8):
        outs = []
        for graph in (True, False):
            g = torch.Generator(device="cuda").manual_seed(7)
            outs.append(StaticDecoder(m, use_graph=graph).generate(
                ids, mask, max_new_tokens=40, temperature=temp, top_p=0.9, generator=g, repeats=[2, 1, 3]).tokens)
        res.append(f"temp {temp}: graph == eager: {torch.equal(outs[0], outs[1])}")
    return "; ".join(res)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--batches", default="1,16,64,256")
    ap.add_argument("--prompt", type=int, default=512)
    ap.add_argument("--new", type=int, default=256)
    ap.add_argument("--accel", default="graph", help="engine decoding paths, comma-separated: graph,compile,static")
    ap.add_argument("--skip-plain", action="store_true")
    ap.add_argument("--json", default=os.environ.get("OUT", ".") + "/gen_throughput.json")
    args = ap.parse_args()
    import transformers

    dev = torch.cuda.get_device_name()
    print(f"device {dev}; torch {torch.__version__}; transformers {transformers.__version__}", flush=True)
    print("selfcheck:", graph_selfcheck(), flush=True)
    bw, flops = measure_ceilings()
    print(f"measured copy bandwidth {bw / 1e12:.2f} TB/s, bf16 matmul {flops / 1e12:.0f} TFLOP/s", flush=True)
    model = build_model()
    engines = {a: TransformersEngine("qwen3-0.6b-random", model=model, tok=None, accel=a)
               for a in args.accel.split(",")}

    def plain(ids, mask, new):
        with torch.inference_mode():
            return model.generate(input_ids=ids, attention_mask=mask, max_new_tokens=new, do_sample=False,
                                  pad_token_id=0)[:, ids.shape[1]:]

    def eng_fn(engine):
        return lambda ids, mask, new: engine.generate_ids(ids, mask, SamplingParams(temperature=0.0, max_tokens=new))

    rows = []
    for b in [int(x) for x in args.batches.split(",")]:
        roof = roofline_seconds(model, b, args.prompt, args.new, bw, flops)
        row = {"batch": b, "roofline_tok_s": b * args.new / roof}
        variants = ([] if args.skip_plain else [("plain", plain, 1)]) + \
            [(f"engine[{a}]", eng_fn(e), 2) for a, e in engines.items()]
        for name, fn, warm in variants:
            try:
                t0 = time.perf_counter()
                dt, ttft, out, ids = run_variant(name, fn, b, args.prompt, args.new, warm)
                row[name] = {"tok_s": b * args.new / dt, "seconds": dt, "ttft_s": ttft,
                             "roofline_fraction": roof / dt, "wall_incl_warmup_s": time.perf_counter() - t0,
                             "greedy_check": greedy_check(model, ids, out)}
                if name == "plain":
                    row["_plain_out"] = out
                elif "_plain_out" in row:
                    # Same greedy decode: bf16 kernels differ between paths, so count agreeing tokens.
                    row[name]["token_agreement_vs_plain"] = (out == row["_plain_out"]).float().mean().item()
            except Exception as e:  # noqa: BLE001 - report and carry on with the other variants
                row[name] = {"error": f"{type(e).__name__}: {e}"[:400]}
            print(json.dumps({k: v for k, v in row.items() if not k.startswith("_")}), flush=True)
        row.pop("_plain_out", None)
        rows.append(row)
        torch.cuda.empty_cache()

    print(f"\n{dev}  prompt {args.prompt} + {args.new} new, greedy, bf16, Qwen3-0.6B shape (random init)")
    print(f"{'batch':>5} {'variant':>16} {'tok/s':>9} {'TTFT ms':>8} {'roofline':>8} {'vs plain':>8}")
    for row in rows:
        base = row.get("plain", {}).get("tok_s")
        for name, v in row.items():
            if not isinstance(v, dict):
                continue
            if "error" in v:
                print(f"{row['batch']:>5} {name:>16} ERROR {v['error'][:80]}")
                continue
            ratio = f"{v['tok_s'] / base:.2f}x" if base else "-"
            print(f"{row['batch']:>5} {name:>16} {v['tok_s']:>9.0f} {v['ttft_s'] * 1e3:>8.1f} "
                  f"{v['roofline_fraction']:>7.1%} {ratio:>8}")
    try:
        Path(args.json).write_text(json.dumps({"device": dev, "bw": bw, "flops": flops, "rows": rows}, indent=1))
    except OSError:
        pass


if __name__ == "__main__":
    main()
