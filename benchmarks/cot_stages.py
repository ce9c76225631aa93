"""CoTBuild's teacher-free work: throughput on the fixtures scaled up, and per-stage yield and drop reasons on a
large synthetic corpus shaped like real sources with malformed files mixed in (prints figures; not a test).

    python benchmarks/cot_stages.py [--scale 200] [--ops 1000 --pages 3000 --bad 0.05 --compile 20]
    python benchmarks/cot_stages.py --docs CHECKOUT/docs --repo CHECKOUT [--suite SUITE] [--compile 30]

Throughput: Markdown chunking + BM25 index build and query; include resolution per kernel file; decontamination
checks per snippet against the built-in suite; general-CoT filtering (shape sniffing, language ID, length,
repetition, n-gram perplexity) per row; MinHash near-duplicate removal per record.
Yield (--ops/--pages): tests/cot/corpus.py writes the corpus; each stage (docs, kernel, project) is built on its
own with an instant scripted teacher (tests/cot/scripted.py; the teacher is not what is measured: its cost is the
generation engine's) and decontaminated against the fixture benchmark (the corpus plants its task names); printed
per stage: inputs, outputs, yield,
every drop reason, tiling-test formats, wall time. --compile N also syntax-checks N kernel snippets against the
simulator headers and prints the outcome reasons.
"""
from __future__ import annotations

import argparse
import json
import logging
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

TESTS = Path(__file__).resolve().parents[1] / "tests" / "cot"
FIX = TESTS / "fixtures"


def timed(fn, *a, **kw):
    t = time.perf_counter()
    out = fn(*a, **kw)
    return out, time.perf_counter() - t


def stage_yields(sources: dict, suite: Path, out: Path, compile_n: int = 0, compile_roots: tuple = ()) -> None:
    """Build each stage on its own over `sources` (CoTBuild spec sources) with an instant scripted teacher."""
    import sys

    sys.path.insert(0, str(TESTS))
    from scripted import ScriptedEngine

    from kernelgen.cot import pipeline
    from kernelgen.cot.context import Options
    from kernelgen.specs import load_spec

    stages = [s for s, key in (("docs", "docs"), ("kernel", "kernels"), ("project", "projects")) if sources.get(key)]
    for stage in stages:
        spec = {"apiVersion": "kernelgen.ai/v1alpha1", "kind": "CoTBuild", "metadata": {"name": "bench"},
                "spec": {"teacher": {"engine": "transformers", "model": {"uri": "/models/none"},
                                     "sampling": {"maxTokens": 512}},
                         "sources": sources, "stages": [stage], "decontamination": {"suiteUri": str(suite)},
                         "output": {"uri": str(out / f"out-{stage}")}}}
        stats, t = timed(pipeline.build_shard, load_spec(spec), 0, 1, Options(), ScriptedEngine)
        st = stats[stage].to_json()
        share = st["outputs"] / st["inputs"] if st["inputs"] else 0.0
        print(f"{stage}: {st['inputs']} in, {st['outputs']} records ({share:.2f} per input) in {t:.1f}s; dropped "
              + json.dumps(st["dropped"], ensure_ascii=False))
        for k in ("scenario_formats", "scenario_fields", "chunks", "questions", "ops_without_tiling_tests"):
            if k in st:
                print(f"  {k}: {json.dumps(st[k], ensure_ascii=False)}")
    if compile_n and sources.get("kernels"):
        from collections import Counter

        from kernelgen.cot.compile_check import check_snippet
        from kernelgen.cot.kernel import include_roots, kernel_files

        src = sources["kernels"][0]
        repo = Path(src["uri"])
        roots = include_roots(repo, src.get("includeRoots", []))
        res = IncludeResolver(repo, roots)
        reasons: Counter = Counter()
        files = kernel_files(repo)
        step = max(1, len(files) // compile_n)            # an even sample across the repository
        t0 = time.perf_counter()
        for f in files[::step][:compile_n]:
            try:
                snip = res.resolve(f)
            except Exception as e:  # noqa: BLE001 - corpora hold unreadable files on purpose
                reasons[f"unresolvable:{type(e).__name__}"] += 1
                continue
            if not snip.self_contained:
                reasons["unresolved_include"] += 1
                continue
            outcome = check_snippet(snip.text, [*roots, *compile_roots])
            reasons["ok" if outcome.ok else outcome.reason] += 1
        dt = time.perf_counter() - t0
        print(f"compile check: {sum(reasons.values())} snippets in {dt:.1f}s: {dict(reasons.most_common())}")


def docs_profile(roots: list[str], suite: Path, report: Path | None) -> None:
    """The docs stage up to the teacher on real pages: chunks, language labels (detector vs. pipeline), chunk-id
    collisions, HTML left in the text, decontamination by layer. (The teacher half is not run: BM25 retrieval for
    every question is the cost there, and it needs no real pages to measure.)"""
    from collections import Counter

    from kernelgen.cot.decontam import Decontaminator
    from kernelgen.cot.docs import clean_markdown, load_chunks
    from kernelgen.cot.text import detect_language

    dec = Decontaminator(suite)
    for root in roots:
        skipped: Counter = Counter()
        chunks, t = timed(load_chunks, Path(root), cap=2000, on_skip=lambda r, why, d, sk=skipped: sk.update([why]))
        pages = sorted({c.path for c in chunks})
        detector: Counter = Counter()
        for rel in pages:
            text, _ = clean_markdown((Path(root) / rel).read_text(encoding="utf-8", errors="replace"))
            detector[detect_language(text)[0]] += 1
        ids = Counter(c.id for c in chunks)
        html = sum(1 for c in chunks if any(x in c.text for x in ("<table", "<a name", "<tr", "<td", "<br")))
        hits, t_dec = timed(lambda cs: [(c, dec.check_text(c.text, names=[c.title, *c.apis])) for c in cs], chunks)
        by = Counter(h.reason for _, h in hits if h)
        print(f"docs {root}: {len(pages)} pages -> {len(chunks)} chunks in {t:.1f}s (skipped {dict(skipped)}); "
              f"page languages by the detector {dict(detector.most_common(8))}; by the pipeline "
              f"{dict(Counter(c.lang for c in chunks))} (chunks); duplicate chunk ids {sum(n - 1 for n in ids.values())}; "
              f"chunks with HTML left {html}; decontaminated {sum(by.values())} {dict(by)} in {t_dec:.1f}s")
        if report is not None:
            with report.open("a", encoding="utf-8") as fh:
                for c, h in hits:
                    if h:
                        fh.write(json.dumps({"stage": "docs", "item": c.id, "reason": h.reason, "task": h.task,
                                             "score": h.score, "detail": h.detail}, ensure_ascii=False) + "\n")


def yield_report(ops: int, pages: int, bad: float, compile_n: int, seed: int) -> None:
    import sys
    import tempfile

    sys.path.insert(0, str(TESTS))
    from corpus import write_corpus

    with tempfile.TemporaryDirectory(prefix="cot-corpus-") as d:
        root = Path(d)
        planted, t_write = timed(write_corpus, root, ops=ops, pages=pages, seed=seed, bad=bad)
        print(f"corpus: {ops} ops, {pages} pages, bad share {bad} (planted: "
              + ", ".join(f"{k} {len(v)}" for k, v in planted.items()) + f") written in {t_write:.1f}s")
        sources = {"docs": [{"uri": str(root / "docs")}],
                   "kernels": [{"uri": str(root / "ops"), "includeRoots": ["common/inc"]}],
                   "projects": [{"uri": str(root / "ops"), "includeRoots": ["common/inc"]}]}
        stage_yields(sources, FIX / "bench_suite", root, compile_n)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=int, default=200, help="copies of each fixture item")
    ap.add_argument("--ops", type=int, default=0, help="ops in the synthetic corpus (0: no yield report)")
    ap.add_argument("--pages", type=int, default=1000, help="doc pages in the synthetic corpus")
    ap.add_argument("--bad", type=float, default=0.05, help="share of malformed files")
    ap.add_argument("--compile", type=int, default=0, help="kernel snippets to syntax-check (about 1-3 s each)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--docs", action="append", default=[], help="a local docs checkout (yield on real sources)")
    ap.add_argument("--repo", action="append", default=[], help="a local operator repository checkout")
    ap.add_argument("--suite", default=str(FIX / "bench_suite"), help="benchmark suite to decontaminate against")
    ap.add_argument("--report", default="", help="append every decontamination drop (JSONL) here, for labelling")
    args = ap.parse_args()
    logging.basicConfig(level=logging.ERROR)       # per-file skip warnings are counted in the stats printed here
    if args.docs or args.repo:
        import tempfile

        report = Path(args.report) if args.report else None
        if args.docs:
            docs_profile(args.docs, Path(args.suite), report)
        if args.repo:
            sources = {"kernels": [{"uri": r} for r in args.repo], "projects": [{"uri": r} for r in args.repo]}
            with tempfile.TemporaryDirectory(prefix="cot-real-") as d:
                stage_yields(sources, Path(args.suite), Path(d), args.compile)
                if report is not None:
                    with report.open("a", encoding="utf-8") as fh:
                        for stage in ("kernel", "project"):
                            f = Path(d) / f"out-{stage}/shards/shard-0000/decontam.jsonl"
                            if f.exists():
                                fh.write(f.read_text())
        return
    if args.ops:
        yield_report(args.ops, args.pages, args.bad, args.compile, args.seed)
        return
    n = args.scale
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
