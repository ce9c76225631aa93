"""Throughput of CoTBuild's teacher-free work, on the synthetic fixtures scaled up (prints figures; not a test).

    python benchmarks/cot_stages.py [--scale 200]

Measures: Markdown chunking + BM25 index build and query; include resolution per kernel file; decontamination
checks per snippet against the built-in suite; general-CoT filtering (shape sniffing, language ID, length,
repetition, n-gram perplexity) per row; MinHash near-duplicate removal per record. The teacher is not timed:
its cost is the generation engine's (see benchmarks for kernelgen.generate).
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from kernelgen.cot.decontam import Decontaminator, builtin_suite
from kernelgen.cot.dedup import near_duplicates
from kernelgen.cot.docs import ChunkIndex, chunk_page
from kernelgen.cot.general import (
    detect_shape,
    language_of,
    read_rows,
    repetition,
    to_triple,
)
from kernelgen.cot.includes import IncludeResolver
from kernelgen.cot.records import CoTRecord
from kernelgen.cot.scorers import NgramScorer

FIX = Path(__file__).resolve().parents[1] / "tests" / "cot" / "fixtures"


def timed(fn, *a):
    t = time.perf_counter()
    out = fn(*a)
    return out, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=int, default=200, help="copies of each fixture item")
    n = ap.parse_args().scale
    pages = [(p.relative_to(FIX / "docs").as_posix(), p.read_text()) for p in sorted((FIX / "docs").rglob("*.md"))]
    chunks, t_chunk = timed(lambda: [c for i in range(n) for rel, raw in pages
                                     for c in chunk_page(f"{i}/{rel}", raw, cap=2000, language="en")])
    idx, t_index = timed(ChunkIndex, chunks)
    _, t_query = timed(lambda: [idx.search("DataCopy alignment 32 bytes", 3) for _ in range(20)])
    print(f"docs: {len(chunks)} chunks in {t_chunk:.2f}s ({len(chunks) / t_chunk:.0f}/s); BM25 index {t_index:.2f}s; "
          f"query {t_query / 20 * 1000:.1f} ms over {len(chunks)} chunks")

    ops = FIX / "ops_repo"
    res = IncludeResolver(ops, [ops / "common/inc"])
    kernel = ops / "math/scaled_add/op_kernel/scaled_add.cpp"
    snips, t_res = timed(lambda: [res.resolve(kernel) for _ in range(n)])
    print(f"includes: {n} resolutions in {t_res:.2f}s ({t_res / n * 1000:.1f} ms per kernel file)")

    suite = builtin_suite()
    dec, t_load = timed(Decontaminator, suite)
    text = snips[0].text
    _, t_dec = timed(lambda: [dec.check_code(text, path="math/scaled_add/op_kernel/scaled_add.cpp") for _ in range(n)])
    print(f"decontam: built-in suite {len(dec.tasks)} tasks loaded in {t_load:.2f}s; "
          f"{t_dec / n * 1000:.1f} ms per kernel snippet ({len(text)} chars)")

    rows = [r for p in sorted((FIX / "general").glob("*")) for r in read_rows(p)]
    rows = [dict(r, _copy=i) for i in range(n) for r in rows]

    def filt():
        kept = []
        for r in rows:
            tr = to_triple(r, detect_shape(r))
            if tr and language_of("\n".join(tr)) in ("en", "zh") and repetition(tr[1] + tr[2]) < 0.3:
                kept.append(tr)
        return kept
    kept, t_f = timed(filt)
    _, t_ppl = timed(NgramScorer().scores, [t[1] + t[2] for t in kept])
    print(f"general: {len(rows)} rows filtered in {t_f:.2f}s ({len(rows) / t_f:.0f} rows/s); "
          f"n-gram perplexity {len(kept) / t_ppl:.0f} rows/s")
    recs = [CoTRecord("general", "x", f"{t[0]} #{i}", t[1], t[2]) for i, t in enumerate(kept)]
    (_, dups), t_dd = timed(near_duplicates, recs, 0.85)
    print(f"dedup: {len(recs)} records in {t_dd:.2f}s ({len(recs) / t_dd:.0f}/s), {len(dups)} near-duplicates")
    print(json.dumps({"scale": n, "median_ms_per_resolve": round(t_res / n * 1000, 2)}))


if __name__ == "__main__":
    main()
