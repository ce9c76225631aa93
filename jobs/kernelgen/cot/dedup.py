"""Near-duplicate removal: MinHash LSH (datasketch) over character shingles.

Character shingles work for Chinese (no word boundaries) and English alike. Records are visited in a fixed
order (by id), so which copy survives does not depend on shard order.
"""
from __future__ import annotations

import re

from datasketch import MinHash, MinHashLSH

from .records import CoTRecord


def shingles(text: str, k: int = 5) -> set[str]:
    t = re.sub(r"\s+", " ", text.lower()).strip()
    return {t[i:i + k] for i in range(max(1, len(t) - k + 1))}


_PERMS: dict[int, object] = {}


def minhash(text: str, num_perm: int = 128) -> MinHash:
    # Drawing the permutations is most of a fresh MinHash's cost: draw them once and share them.
    perms = _PERMS.setdefault(num_perm, MinHash(num_perm=num_perm, seed=1).permutations)
    m = MinHash(num_perm=num_perm, seed=1, permutations=perms, scheme="affine32")
    m.update_batch([s.encode("utf-8") for s in shingles(text)])
    return m


# Kinds whose prompts are free text that corpora and teachers repeat. Kernel, project and debug samples are
# keyed by their code and scenario: two tiling scenarios of one op share almost all their text on purpose.
NEAR_DUP_KINDS = ("general", "doc_qa")


def near_duplicates(records: list[CoTRecord], threshold: float) -> tuple[list[CoTRecord], list[tuple[str, str]]]:
    """(kept, [(dropped id, kept id it duplicates)]) within a kind (NEAR_DUP_KINDS only): questions for doc QA,
    the whole sample for general CoT (two corpora often carry one problem with a reworded prompt)."""
    lshs: dict[str, MinHashLSH] = {}
    kept, dropped = [], []
    for r in sorted(records, key=lambda r: r.id):
        if r.kind not in NEAR_DUP_KINDS:
            kept.append(r)
            continue
        if r.kind not in lshs:
            lshs[r.kind] = MinHashLSH(threshold=threshold, num_perm=128)
        lsh = lshs[r.kind]
        m = minhash(r.prompt if r.kind == "doc_qa" else r.text())
        dup = lsh.query(m)
        if dup:
            dropped.append((r.id, min(dup)))
            continue
        lsh.insert(r.id, m)
        kept.append(r)
    return kept, dropped
