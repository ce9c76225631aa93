"""A small character n-gram language model (interpolated add-k), the CI-grade perplexity scorer.

Deterministic, offline and fast enough for ~1e5 records. Trained on the corpus being filtered and scored
leave-one-out (a record's own counts are subtracted while it is scored), so it needs no reference corpus and a
garbled or degenerate record cannot vouch for itself.
"""
from __future__ import annotations

import math
from collections import Counter


class CharNgramLM:
    def __init__(self, n: int = 3, k: float = 0.1):
        self.n, self.k = n, k
        self.counts: list[Counter] = [Counter() for _ in range(n + 1)]   # counts[j]: j-grams
        self.vocab: set[str] = set()

    def _grams(self, text: str):
        pad = "\x02" * (self.n - 1) + text + "\x03"
        for i in range(self.n - 1, len(pad)):
            for j in range(1, self.n + 1):
                yield j, pad[i - j + 1:i + 1]

    def fit(self, texts) -> CharNgramLM:
        for t in texts:
            self.add(t, +1)
        return self

    def add(self, text: str, sign: int) -> None:
        for j, g in self._grams(text):
            self.counts[j][g] += sign
            if j == 1 and sign > 0:
                self.vocab.add(g)
        self.counts[0][""] += sign * (len(text) + 1)

    def perplexity(self, text: str, *, leave_out: bool = False) -> float:
        if leave_out:
            self.add(text, -1)
        try:
            v = max(1, len(self.vocab))
            lam = [0.0] + [1.0 / self.n] * self.n         # equal interpolation weights across orders
            nll, count = 0.0, 0
            pad = "\x02" * (self.n - 1) + text + "\x03"
            for i in range(self.n - 1, len(pad)):
                p = 0.0
                for j in range(1, self.n + 1):
                    g = pad[i - j + 1:i + 1]
                    ctx = self.counts[j - 1][g[:-1]] if j > 1 else self.counts[0][""]
                    p += lam[j] * (max(self.counts[j][g], 0) + self.k) / (max(ctx, 0) + self.k * v)
                nll -= math.log(p)
                count += 1
            return math.exp(nll / max(1, count))
        finally:
            if leave_out:
                self.add(text, +1)
