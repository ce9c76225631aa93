"""Memory arithmetic per device for FSDP (full sharding) training of a dense decoder, as `kernelgen train` runs it.

Full fine-tuning keeps fp32 master weights, fp32 gradients and AdamW's two fp32 moments: 16 bytes per parameter,
sharded over all devices (FSDP2). A LoRA run keeps the frozen base in bf16 (2 bytes per parameter, sharded) and
16 bytes per adapter parameter. A full DPO run adds a frozen bf16 reference (2 bytes per parameter, sharded per
layer, kernelgen.train.fsdp). Working memory on top, per device, with activation checkpointing and micro batch 1:
- layer inputs kept for recomputation: layers x tokens x hidden x 2 bytes (DPO: chosen + rejected = 2 sequences);
- one layer recomputed in flight: tokens x (8 x hidden + 4 x intermediate) x 2 bytes;
- gathered parameters (bf16) of two layers (the current one and the prefetched one) and one layer's fp32 gradients
  before the reduce-scatter;
- the LM head's chunked loss (Liger / trl fused LM head): a few hundred MB, counted as 0.5 GB.
This is arithmetic, not a measurement: the allocator's fragmentation and the communication buffers add some
GiB (compare the measured 8B figures in benchmarks/train_scale_out.md).

    python benchmarks/train_memory.py            # Qwen3-32B on 8 and 16 devices, seq 4096, 64 GB HBM (910B)
    python benchmarks/train_memory.py --model qwen3-8b --devices 4 --hbm 80
"""
from __future__ import annotations

import argparse

GB = 1e9
MODELS = {   # layers, hidden, intermediate, heads, kv heads, head dim, vocab, tied embeddings
    "qwen3-8b": (36, 4096, 12288, 32, 8, 128, 151936, False),
    "qwen3-32b": (64, 5120, 25600, 64, 8, 128, 151936, False),
}


def params(name: str) -> tuple[float, float, float]:
    """(all parameters, parameters of one decoder layer, LoRA r=16 parameters on all linear layers)."""
    layers, h, i, heads, kv, d, vocab, tied = MODELS[name]
    q, k = heads * d, kv * d
    shapes = [(h, q), (h, k), (h, k), (q, h), (h, i), (h, i), (i, h)]
    layer = sum(a * b for a, b in shapes) + 4 * h
    lora = layers * sum(16 * (a + b) for a, b in shapes)
    return layers * layer + vocab * h * (1 if tied else 2) + h, layer, lora


def per_device(name: str, devices: int, seq: int, method: str, lora: bool) -> dict[str, float]:
    layers, h, i, *_ = MODELS[name]
    n, layer, n_lora = params(name)
    seqs = 2 if method == "DPO" else 1
    states = (2 * n + 16 * n_lora) / devices if lora else 16 * n / devices
    reference = 2 * n / devices if method == "DPO" and not lora else 0.0
    activations = seqs * (layers * seq * h * 2 + seq * (8 * h + 4 * i) * 2)
    buffers = 2 * 2 * layer + (0 if lora else 4 * layer) + 0.5 * GB
    return {"states": states / GB, "reference": reference / GB, "activations": activations / GB,
            "buffers": buffers / GB, "total": (states + reference + activations + buffers) / GB}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="qwen3-32b", choices=sorted(MODELS))
    ap.add_argument("--devices", default="8,16")
    ap.add_argument("--seq", type=int, default=4096)
    ap.add_argument("--hbm", type=float, default=64.0, help="GB of device memory (Ascend 910B: 64)")
    a = ap.parse_args()
    n, _, n_lora = params(a.model)
    print(f"{a.model}: {n / 1e9:.2f}B parameters, LoRA r=16 all-linear {n_lora / 1e6:.0f}M; seq {a.seq}, "
          f"micro batch 1, activation checkpointing; GB = 1e9 bytes, device memory {a.hbm:g} GB\n")
    devices = [int(d) for d in a.devices.split(",")]
    print("| run | " + " | ".join(f"{d} devices: states + ref + act + buffers = total" for d in devices) + " |")
    print("| --- |" + " --- |" * len(devices))
    for method, lora in (("SFT", False), ("DPO", False), ("SFT", True), ("DPO", True)):
        cells = []
        for d in devices:
            m = per_device(a.model, d, a.seq, method, lora)
            fits = "fits" if m["total"] <= a.hbm else "does not fit"
            cells.append(f"{m['states']:.1f} + {m['reference']:.1f} + {m['activations']:.1f} + {m['buffers']:.1f} "
                         f"= **{m['total']:.1f}** ({fits})")
        print(f"| {method} {'LoRA r=16' if lora else 'full'} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
