"""Stage 2, kernel-level CoT: self-contained snippet → request the code answers (Table 9) → reasoning."""
from __future__ import annotations

from pathlib import Path

from . import prompts
from .context import StageContext
from .cpp import source_problem
from .includes import IncludeResolver
from .records import CoTRecord
from .teacher import TeacherRequest
from .text import extract_tag, retrieval_tokens

KERNEL_EXT = (".cpp", ".cc", ".asc")


def kernel_files(repo: Path) -> list[Path]:
    """Kernel entry files: sources under an op_kernel directory, and single-source .asc kernels; never tests."""
    out = []
    for p in sorted(repo.rglob("*")):
        if not p.is_file() or p.suffix not in KERNEL_EXT:
            continue
        parts = p.relative_to(repo).parts
        if any(x in ("tests", "test", "ut", "st") for x in parts[:-1]):
            continue
        if "op_kernel" in parts[:-1] or p.suffix == ".asc":
            out.append(p)
    return out


def request_leak(request: str, code: str, n: int = 6) -> float:
    """Share of the request's token n-grams that appear in the code: a request that pastes code scores high."""
    r, c = retrieval_tokens(request), retrieval_tokens(code)
    rg = {tuple(r[i:i + n]) for i in range(len(r) - n + 1)}
    if not rg:
        return 0.0
    cg = {tuple(c[i:i + n]) for i in range(len(c) - n + 1)}
    return len(rg & cg) / len(rg)


def include_roots(repo: Path, roots: list[str]) -> list[Path]:
    """A source's include roots: relative ones under the repository, absolute ones (a toolkit's) as given."""
    return [Path(r) if Path(r).is_absolute() else repo / r for r in roots]


def _prepare(ctx: StageContext, st, src, resolver: IncludeResolver, roots: list[Path], f: Path, rel: str, items: list):
    snip = resolver.resolve(f)
    if (problem := source_problem(snip.own_text)):
        st.drop(f"not_source:{problem}", item=rel)
        return
    if not snip.self_contained:
        st.drop("unresolved_include", item=rel, detail=", ".join(snip.unresolved))
        return
    if len(snip.text) > ctx.options.max_snippet_chars:
        st.drop("oversize", item=rel)
        return
    if ctx.decontam is not None:
        hit = ctx.decontam.check_code(snip.text, path=rel, own_source=snip.own_text)
        if hit:
            st.drop("decontam:" + hit.reason, item=rel)
            ctx.decontam.report("kernel", f"{src.uri}:{rel}", hit)
            return
    compiled = None
    if src.compile_check != "off":
        from .compile_check import check_snippet

        outcome = check_snippet(snip.text, roots)
        compiled = {"ok": outcome.ok, "reason": outcome.reason}
        st.count("compile_check", "ok" if outcome.ok else outcome.reason)
        if not outcome.ok and src.compile_check == "require":
            st.drop("compile:" + outcome.reason.split(":", 1)[0], item=rel, detail=outcome.log)
            return
    if not ctx.fits(st, rel, prompts.kernel_request(snip.text)):
        return
    items.append((rel, snip, compiled))


def run_kernel(ctx: StageContext, sources) -> list[CoTRecord]:
    st = ctx.stage_stats("kernel")
    mark = ctx.teacher_mark()
    records: list[CoTRecord] = []
    for src in sources:
        repo = Path(src.local_path)
        roots = include_roots(repo, src.include_roots)
        resolver = IncludeResolver(repo, roots)
        items: list = []
        for f in kernel_files(repo):
            rel = f.relative_to(repo).as_posix()
            if not ctx.mine(f"kernel:{src.uri}:{rel}"):
                continue
            st.inputs += 1
            ctx.attempt(st, rel, _prepare, ctx, st, src, resolver, roots, f, rel, items)
        reqs = ctx.teacher.ask([TeacherRequest(key=rel, messages=prompts.kernel_request(s.text),
                                               accept=lambda r: bool((extract_tag(r.content, "request") or r.content).strip()))
                                for rel, s, _ in items])
        second = []
        for rel, snip, compiled in items:
            rep = reqs.get(rel)
            if not ctx.keep_reply(rep, st, need_reasoning=False, item=rel):
                continue
            request = (extract_tag(rep.content, "request") or rep.content).strip()
            if request_leak(request, snip.text) > 0.5:
                st.drop("request_leaks_code", item=rel)
                continue
            if not ctx.fits(st, rel, prompts.kernel_reasoning(request, snip.text)):
                continue
            second.append((rel, snip, request, rep, compiled))
        cots = ctx.teacher.ask([TeacherRequest(key=rel, messages=prompts.kernel_reasoning(req, s.text),
                                               accept=lambda r: bool(r.content.strip() or r.reasoning.strip()))
                                for rel, s, req, _, _ in second])
        for rel, snip, request, qrep, compiled in second:
            rep = cots.get(rel)
            if not ctx.keep_reply(rep, st, item=rel):
                continue
            reasoning = rep.reasoning.strip() or extract_tag(rep.content, "think") or rep.content.strip()
            records.append(CoTRecord(
                kind="kernel", source=src.uri, prompt=request, reasoning=reasoning,
                answer=f"```cpp\n{snip.text}\n```", lang="en", licence=ctx.options.licence,
                provenance={"path": rel, "inlined": snip.inlined, "external": snip.external, "commit": src.commit},
                teacher={"request": qrep.provenance(), "reasoning": rep.provenance(),
                         "prompt_version": prompts.PROMPT_VERSION},
                meta={"compile": compiled} if compiled is not None else {}))
    st.outputs += len(records)
    ctx.count_teacher(st, mark)
    return records
