"""A static-KV-cache decoder with the whole decode step captured as one CUDA graph, for Llama-family models.

`model.generate` spends most of a decode step launching kernels from Python (hundreds per step for a 28-layer
model) and growing its cache. This decoder preallocates the KV cache for (batch, prompt + new tokens), runs the
prompt once, then replays one captured CUDA graph per new token: the graph embeds the last token, runs every
layer (the HF modules' own norms, projections and MLPs; attention over the static cache here), picks the next
token (greedy inside the graph; temperature/top-p sampling right after it), marks finished rows and records
the token. The host only calls replay().

Works for decoder-only models whose layers look like Llama's (Llama, Mistral, Qwen2, Qwen3, SmolLM2):
`model.model.{embed_tokens, layers, norm, rotary_emb}`, `layer.{input_layernorm, self_attn.{q,k,v,o}_proj
[, q_norm, k_norm], post_attention_layernorm, mlp}`. `supports(model)` says whether a model fits. On CPU it
runs the same code without a graph (used by the tests to check it against model.generate).
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F


def supports(model) -> tuple[bool, str]:
    inner = getattr(model, "model", None)
    need = ("embed_tokens", "layers", "norm", "rotary_emb")
    if inner is None or not all(hasattr(inner, a) for a in need) or not hasattr(model, "lm_head"):
        return False, "not a Llama-style decoder (model.model.{embed_tokens,layers,norm,rotary_emb}, lm_head)"
    attn = getattr(inner.layers[0], "self_attn", None)
    if attn is None or not all(hasattr(attn, p) for p in ("q_proj", "k_proj", "v_proj", "o_proj")):
        return False, "attention is not q/k/v/o projections"
    types = set(getattr(model.config, "layer_types", None) or ["full_attention"])
    if types != {"full_attention"}:
        return False, f"layer types {sorted(types)} (sliding/linear attention) are not supported"
    return True, ""


def _rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


@dataclass
class DecodeOutput:
    tokens: torch.Tensor        # (B, max_new) new token ids, pad after a row finished
    lengths: torch.Tensor       # (B,) tokens generated before (and including) EOS
    ttft_s: float               # prompt pass + first token
    seconds: float


class StaticDecoder:
    def __init__(self, model, *, use_graph: bool | None = None, compile: bool = False):
        ok, why = supports(model)
        if not ok:
            raise ValueError(why)
        self.model = model
        self.inner = model.model
        cfg = model.config
        self.n_heads = cfg.num_attention_heads
        self.n_kv = getattr(cfg, "num_key_value_heads", None) or self.n_heads
        self.head_dim = getattr(cfg, "head_dim", None) or cfg.hidden_size // self.n_heads
        attn0 = self.inner.layers[0].self_attn
        self.scale = float(getattr(attn0, "scaling", self.head_dim ** -0.5))
        self.device = next(model.parameters()).device
        self.dtype = next(model.parameters()).dtype
        self.use_graph = self.device.type == "cuda" if use_graph is None else use_graph
        # torch.compile fuses the step's elementwise work (norms, rotary, residuals): a decode step is then
        # ~5x fewer kernels, which is what bounds small batches even inside a CUDA graph. One compile per
        # batch shape (tens of seconds), so it pays off for long runs of same-sized batches.
        self._step_forward = torch.compile(self.forward, dynamic=False) if compile else self.forward

    # -- the model, one step over T new positions ---------------------------------------------------------
    def _attend(self, li, attn, x, cos, sin, write_idx, mask, kc, vc):
        B, T, _ = x.shape
        H, KV, D = self.n_heads, self.n_kv, self.head_dim
        q = attn.q_proj(x).view(B, T, H, D)
        k = attn.k_proj(x).view(B, T, KV, D)
        v = attn.v_proj(x).view(B, T, KV, D)
        if getattr(attn, "q_norm", None) is not None:
            q, k = attn.q_norm(q), attn.k_norm(k)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        c, s = cos.unsqueeze(1), sin.unsqueeze(1)
        q = q * c + _rotate_half(q) * s
        k = k * c + _rotate_half(k) * s
        kc[li].index_copy_(2, write_idx, k.to(kc[li].dtype))
        vc[li].index_copy_(2, write_idx, v.to(vc[li].dtype))
        keys, vals = kc[li][:, :, :mask.shape[-1]], vc[li][:, :, :mask.shape[-1]]
        # Grouped-query attention without repeating K/V: the G query heads of a KV group become G*T queries
        # (mask already expanded to G*T rows by forward()).
        qg = q.reshape(B, KV, (H // KV) * T, D)
        o = F.scaled_dot_product_attention(qg, keys, vals, attn_mask=mask, scale=self.scale)
        o = o.reshape(B, H, T, D).transpose(1, 2).reshape(B, T, H * D)
        return attn.o_proj(o)

    def forward(self, ids, pos, write_idx, mask, kc, vc):
        """ids/pos (B,T); write_idx (T,) cache slots; mask (B,1,T,Lk) bool. Returns last-position logits."""
        h = self.inner.embed_tokens(ids)
        cos, sin = self.inner.rotary_emb(h, pos)
        B, T = ids.shape
        G, Lk = self.n_heads // self.n_kv, mask.shape[-1]
        mask = mask.unsqueeze(2).expand(B, 1, G, T, Lk).reshape(B, 1, G * T, Lk)
        for li, layer in enumerate(self.inner.layers):
            h = h + self._attend(li, layer.self_attn, layer.input_layernorm(h), cos, sin, write_idx, mask, kc, vc)
            h = h + layer.mlp(layer.post_attention_layernorm(h))
        h = self.inner.norm(h[:, -1:])
        return self.model.lm_head(h)[:, 0].float()

    # -- generation ---------------------------------------------------------------------------------------
    @torch.inference_mode()
    def generate(self, input_ids, attention_mask, *, max_new_tokens: int, eos_ids=(), pad_id: int = 0,
                 temperature: float = 0.0, top_p: float = 1.0, generator: torch.Generator | None = None,
                 repeats=None) -> DecodeOutput:
        """Decode up to max_new_tokens for each row of a left-padded batch.

        `repeats` (one int per row) decodes row i repeats[i] times (n samples of one prompt): the prompt pass
        runs once per distinct prompt and its KV cache is copied to every sample.
        """
        import time

        dev = self.device
        sync = (lambda: torch.cuda.synchronize(dev)) if dev.type == "cuda" else (lambda: None)
        t0 = time.perf_counter()
        input_ids, attention_mask = input_ids.to(dev), attention_mask.to(dev).bool()
        U, P = input_ids.shape
        L = P + max_new_tokens
        n_layers = len(self.inner.layers)
        shape = (U, self.n_kv, L, self.head_dim)
        kc = [torch.zeros(shape, dtype=self.dtype, device=dev) for _ in range(n_layers)]
        vc = [torch.zeros(shape, dtype=self.dtype, device=dev) for _ in range(n_layers)]

        # Prompt pass: causal within the prompt, padding masked (each position sees itself, so padded rows
        # stay finite).
        pos = (attention_mask.long().cumsum(-1) - 1).clamp(min=0)
        causal = torch.ones(P, P, dtype=torch.bool, device=dev).tril()
        pmask = (causal.unsqueeze(0) & attention_mask.unsqueeze(1)) | torch.eye(P, dtype=torch.bool, device=dev)
        logits = self.forward(input_ids, pos, torch.arange(P, device=dev), pmask.unsqueeze(1), kc, vc)
        if repeats is not None:
            rep = torch.as_tensor(repeats, device=dev)
            kc = [k.repeat_interleave(rep, 0) for k in kc]
            vc = [v.repeat_interleave(rep, 0) for v in vc]
            logits, pos = logits.repeat_interleave(rep, 0), pos.repeat_interleave(rep, 0)
            attention_mask = attention_mask.repeat_interleave(rep, 0)
        B = logits.shape[0]
        eos = torch.tensor(sorted(set(eos_ids)) or [-1], device=dev)
        greedy = temperature <= 0

        # State the decode step reads and updates in place (fixed addresses for the graph).
        st_ids = torch.zeros(B, 1, dtype=torch.long, device=dev)
        st_pos = pos[:, -1:] + 1
        st_slot = torch.full((1,), P, dtype=torch.long, device=dev)   # first new token: cache slot P, column 0
        st_mask = torch.zeros(B, 1, 1, L, dtype=torch.bool, device=dev)
        st_mask[:, 0, 0, :P] = attention_mask
        st_done = torch.zeros(B, dtype=torch.bool, device=dev)
        st_logits = logits.float().contiguous()
        out = torch.full((B, max_new_tokens), pad_id, dtype=torch.long, device=dev)

        def accept(nxt):
            """Record next tokens at column st_slot - P, mark finished rows; in place, graph-safe."""
            nxt = torch.where(st_done, torch.full_like(nxt, pad_id), nxt)
            col = (st_slot - P).clamp(0, max_new_tokens - 1)
            out.index_copy_(1, col, nxt.unsqueeze(1))
            st_done.logical_or_((nxt.unsqueeze(1) == eos).any(1))
            st_ids.copy_(nxt.unsqueeze(1))

        def step():
            st_mask.index_fill_(3, st_slot, True)
            logits = self._step_forward(st_ids, st_pos, st_slot, st_mask, kc, vc)
            st_logits.copy_(logits)
            st_pos.add_(1)
            st_slot.add_(1)
            if greedy:
                accept(st_logits.argmax(-1))

        accept(st_logits.argmax(-1) if greedy else _sample(st_logits, temperature, top_p, generator))
        sync()
        ttft = time.perf_counter() - t0
        graph = None
        if self.use_graph and max_new_tokens > 1:
            # Warm-up and capture run the step for real; save the state they touch and put it back. The cache
            # slot they write (P) is written again by the first replay before anything reads it.
            state = [t.clone() for t in (st_ids, st_pos, st_slot, st_mask, st_done, st_logits, out)]
            s = torch.cuda.Stream(dev)
            s.wait_stream(torch.cuda.current_stream(dev))
            with torch.cuda.stream(s):
                step()
            torch.cuda.current_stream(dev).wait_stream(s)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                step()
            for t, saved in zip((st_ids, st_pos, st_slot, st_mask, st_done, st_logits, out), state):
                t.copy_(saved)

        for i in range(1, max_new_tokens):
            if graph is not None:
                graph.replay()
            else:
                step()
            if not greedy:
                accept(_sample(st_logits, temperature, top_p, generator))
            if i % 32 == 0 and bool(st_done.all()):
                break
        sync()
        is_eos = (out.unsqueeze(-1) == eos).any(-1)
        # A row ends at its first EOS (included); rows stop only at EOS or at max_new_tokens.
        lengths = torch.where(is_eos.any(1), is_eos.float().argmax(1) + 1,
                              torch.full((B,), max_new_tokens, dtype=torch.long, device=dev))
        return DecodeOutput(out, lengths, ttft, time.perf_counter() - t0)


def _sample(logits, temperature: float, top_p: float, generator):
    probs = torch.softmax(logits / temperature, dim=-1)
    if top_p < 1.0:
        sp, si = probs.sort(dim=-1, descending=True)
        keep = sp.cumsum(-1) - sp < top_p           # always keeps the most likely token
        sp = sp * keep
        choice = torch.multinomial(sp, 1, generator=generator)
        return si.gather(-1, choice).squeeze(1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(1)
