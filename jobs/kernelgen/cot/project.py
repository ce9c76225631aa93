"""Stage 3, project-level CoT: host-tiling + kernel pairs, one per execution scenario (paper §4.1.2, Table 10).

Scenarios come from the op's tiling unit tests (gtest files under tests/ut/op_host/ whose name mentions
tiling; formats in `tiling_tests`): each test fixes shapes, dtypes and the platform (core count, UB bytes) and
asserts the values the tiling code computes. Those asserted values are the ground truth the teacher's JSON
summary is checked against, field by field; the answer carries the asserted values, never the teacher's guesses.
A test that expects the tiling call to fail is a negative scenario: the teacher explains which check rejects
the case (debug-style CoT), and the answer states the rejection.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import prompts
from .context import StageContext
from .cpp import source_problem
from .docs import reasoning_and_answer
from .includes import IncludeResolver
from .kernel import include_roots
from .records import CoTRecord
from .teacher import TeacherRequest
from .text import extract_json_object, extract_tag
from .tiling_tests import FORMATS, Scenario, field_name, mine_scenarios  # noqa: F401 - field_name re-exported

@dataclass
class OpProject:
    name: str
    root: Path
    host_files: list[Path]
    kernel_files: list[Path]
    tiling_tests: list[Path]


def find_projects(repo: Path) -> list[OpProject]:
    ops = []
    for host in sorted(repo.rglob("op_host")):
        root = host.parent
        kdir = root / "op_kernel"
        if not host.is_dir() or not kdir.is_dir() or "tests" in root.relative_to(repo).parts:
            continue
        hosts = sorted(p for p in host.rglob("*") if p.is_file() and "tiling" in p.name and p.suffix in (".cpp", ".h"))
        kernels = sorted(p for p in kdir.iterdir() if p.is_file() and p.suffix in (".cpp", ".asc"))
        tests = sorted(p for p in (root / "tests").rglob("*tiling*.cpp")) if (root / "tests").is_dir() else []
        tests += sorted(p for p in repo.glob(f"tests/ut/op_host/*{root.name}*tiling*.cpp"))
        if hosts and kernels:
            ops.append(OpProject(root.name, root, hosts, kernels, tests))
    return ops


def check_tiling(summary: dict | None, expected: dict[str, Any]) -> dict[str, Any]:
    """Field-by-field agreement of the teacher's tiling JSON with the asserted values."""
    if not expected:
        return {"status": "unchecked"}
    flat: dict[str, Any] = {}

    def walk(d: Any) -> None:
        if isinstance(d, dict):
            for k, v in d.items():
                if isinstance(v, dict):
                    walk(v)
                else:
                    flat[str(k)] = v
    walk(summary or {})          # lists (workspaces) stay leaf values, compared whole
    norm = {re.sub(r"[_\s]", "", k).lower(): v for k, v in flat.items()}
    matched, mismatched, missing = [], {}, []
    for k, v in expected.items():
        got = norm.get(re.sub(r"[_\s]", "", k).lower())
        if got is None:
            missing.append(k)
        elif str(got) == str(v) or (_num(got) is not None and _num(got) == _num(v)):
            matched.append(k)
        else:
            mismatched[k] = got
    status = "agree" if not mismatched and not missing else ("partial" if matched else "disagree")
    return {"status": status, "matched": matched, "mismatched": mismatched, "missing": missing}


def _num(v: Any) -> float | None:
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def op_scenarios(ctx: StageContext, st, op: OpProject, repo: Path) -> list[Scenario]:
    """The op's informative scenarios; a test file that cannot be mined is skipped and counted, not fatal."""
    out: list[Scenario] = []
    for t in op.tiling_tests:
        _, scs = ctx.attempt(st, t.relative_to(repo).as_posix(), lambda f: mine_scenarios(_read(f)), t)
        for sc in scs or []:
            st.count("scenario_formats", sc.format)
            st.count("scenario_fields", "with_shapes", bool(sc.shapes))
            st.count("scenario_fields", "with_expected", bool(sc.expected))
            st.count("scenario_fields", "negative", sc.expect_failure)
            if sc.informative:
                out.append(sc)
            else:
                st.count("scenario_fields", "uninformative_skipped")
    return out


def _answer(host: str, kernel: str, summary: dict) -> str:
    return (f"Host tiling:\n```cpp\n{host}\n```\n\nKernel:\n```cpp\n{kernel}\n```\n\n"
            f"Tiling summary:\n```json\n{json.dumps(summary, ensure_ascii=False, indent=1)}\n```")


def _messages(op: OpProject, sc: Scenario, host: str, kernel: str) -> list[dict[str, str]]:
    if sc.expect_failure:
        return prompts.project_rejection(op.name, host, kernel, sc.test_case(), sc.hardware())
    return prompts.project_reasoning(op.name, host, kernel, sc.test_case(), sc.hardware())


def _prepare_op(ctx: StageContext, st, src, repo: Path, resolver: IncludeResolver, op: OpProject, items: list) -> None:
    rel = op.root.relative_to(repo).as_posix()
    if ctx.decontam is not None:
        hit = ctx.decontam.check_names([op.name, *(p.stem for p in op.kernel_files)])
        if hit:
            n = max(1, len(op_scenarios(ctx, st, op, repo)))
            st.inputs += n
            st.drop("decontam:" + hit.reason, n, item=rel)
            ctx.decontam.report("project", f"{src.uri}:{rel}", hit)
            return
    scenarios = op_scenarios(ctx, st, op, repo)
    if not scenarios:
        scenarios = [Scenario(name="default")]
        st.extra["ops_without_tiling_tests"] = st.extra.get("ops_without_tiling_tests", 0) + 1
    host = "\n\n".join(f"// ===== {p.relative_to(repo).as_posix()} =====\n{_read(p)}" for p in op.host_files)
    snippets = [resolver.resolve(k) for k in op.kernel_files]
    problem = next((p for p in map(source_problem, [*(s.own_text for s in snippets), host]) if p), None)
    if problem:
        st.inputs += len(scenarios)
        st.drop(f"not_source:{problem}", len(scenarios), item=rel)
        return
    if any(not s.self_contained for s in snippets):
        st.inputs += len(scenarios)
        st.drop("unresolved_include", len(scenarios), item=rel)
        return
    kernel = "\n".join(s.text for s in snippets)
    if ctx.decontam is not None:
        hit = ctx.decontam.check_code(kernel, path=rel, own_source="\n".join(s.own_text for s in snippets))
        if hit:
            st.inputs += len(scenarios)
            st.drop("decontam:" + hit.reason, len(scenarios), item=rel)
            ctx.decontam.report("project", f"{src.uri}:{rel}", hit)
            return
    for sc in scenarios:
        key = f"{rel}|{sc.name}"
        if not ctx.mine(f"project:{src.uri}:{key}"):
            continue
        st.inputs += 1
        if ctx.fits(st, key, _messages(op, sc, host, kernel)):
            items.append((key, op, rel, sc, host, kernel, snippets))


def run_project(ctx: StageContext, sources) -> list[CoTRecord]:
    st = ctx.stage_stats("project")
    mark = ctx.teacher_mark()
    records: list[CoTRecord] = []
    for src in sources:
        repo = Path(src.local_path)
        resolver = IncludeResolver(repo, include_roots(repo, src.include_roots))
        items: list = []
        for op in find_projects(repo):
            ctx.attempt(st, op.root.relative_to(repo).as_posix(), _prepare_op, ctx, st, src, repo, resolver, op, items)
        reps = ctx.teacher.ask([TeacherRequest(key=key, messages=_messages(op, sc, host, kernel),
                                               accept=lambda r: bool(r.content.strip() or r.reasoning.strip()))
                                for key, op, rel, sc, host, kernel, _ in items])
        agree = 0
        for key, op, rel, sc, host, kernel, snippets in items:
            rep = reps.get(key)
            if not ctx.keep_reply(rep, st, item=key):
                continue
            reasoning = rep.reasoning.strip() or extract_tag(rep.content, "think") or rep.content.strip()
            summary = {"op": op.name, "scenario": sc.name, **sc.test_case(), **sc.hardware()}
            if sc.expect_failure:
                check = {"status": "negative"}
                summary["tiling_result"] = "rejected"
                question = prompts.project_rejection_question(op.name, sc.test_case(), sc.hardware())
                explanation = reasoning_and_answer(rep)[1]
                if not explanation:
                    st.drop("empty_answer", item=key)
                    continue
                answer = (f"{explanation}\n\nTiling summary:\n```json\n"
                          f"{json.dumps(summary, ensure_ascii=False, indent=1)}\n```")
            else:
                check = check_tiling(extract_json_object(rep.content), sc.expected)
                agree += check["status"] == "agree"
                summary["tiling"] = sc.expected
                question = prompts.project_question(op.name, sc.test_case(), sc.hardware())
                answer = _answer(host, kernel, summary)
            records.append(CoTRecord(
                kind="project", source=src.uri, prompt=question, reasoning=reasoning,
                answer=answer, lang="en", licence=ctx.options.licence,
                provenance={"op_dir": rel, "host": [p.relative_to(repo).as_posix() for p in op.host_files],
                            "kernel": [s.path for s in snippets], "tests": [p.relative_to(repo).as_posix()
                                                                             for p in op.tiling_tests],
                            "commit": src.commit},
                teacher={"reasoning": rep.provenance(), "prompt_version": prompts.PROMPT_VERSION},
                meta={"scenario": summary, "scenario_format": sc.format, "negative": sc.expect_failure,
                      "tiling_check": check}))
        st.extra["tiling_agree"] = st.extra.get("tiling_agree", 0) + agree
    st.outputs += len(records)
    ctx.count_teacher(st, mark)
    return records
