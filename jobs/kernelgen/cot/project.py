"""Stage 3, project-level CoT: host-tiling + kernel pairs, one per execution scenario (paper §4.1.2, Table 10).

Scenarios come from the op's tiling unit tests (gtest files under tests/ut/op_host/ whose name mentions
tiling): each TEST block fixes shapes, dtypes and the platform (core count, UB bytes) and asserts the values
the tiling code computes. Those asserted values are the ground truth the teacher's JSON summary is checked
against, field by field; the answer carries the asserted values, never the teacher's guesses.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import prompts
from .context import StageContext
from .includes import IncludeResolver
from .records import CoTRecord
from .teacher import TeacherRequest
from .text import extract_json_object, extract_tag

_TEST = re.compile(r"\b(?:TEST|TEST_F|TEST_P)\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)\s*\{")
_EXPECT = re.compile(r"\b(?:EXPECT_EQ|ASSERT_EQ)\s*\(\s*([^,;]+?)\s*,\s*([^;]+?)\s*\)\s*;")
_DTYPE = re.compile(r"\bge::DT_([A-Z0-9_]+)\b|\bDT_([A-Z0-9_]+)\b")
# gert::StorageShape x = {{origin dims}, {storage dims}} (or x({...}, {...})), and ge::Shape({dims}).
_STORAGE_SHAPE = re.compile(r"StorageShape\b[^;{]*?[=(]?\s*\{\s*\{([\d\s,]*)\}\s*,\s*\{([\d\s,]*)\}\s*\}")
_SHAPE = re.compile(r"\bShape\s*\(\s*\{([\d\s,]*)\}\s*\)")
_CORES = re.compile(r"(?i)\b(?:core_?num|aiv_?num|vector_core_cnt|block_?dim_?max|coreNum)\b\s*[=:(,]\s*\"?(\d+)")
_UB = re.compile(r"(?i)\b(?:ub_?size|ubSize)\b\s*[=:(,]\s*\"?(\d+)")
_SOC = re.compile(r"\"(Ascend\w+)\"")


@dataclass
class Scenario:
    name: str
    shapes: list[list[int]] = field(default_factory=list)
    dtypes: list[str] = field(default_factory=list)
    core_num: int | None = None
    ub_size: int | None = None
    soc: str | None = None
    expected: dict[str, Any] = field(default_factory=dict)

    def test_case(self) -> dict[str, Any]:
        return {"shapes": self.shapes, "dtypes": self.dtypes}

    def hardware(self) -> dict[str, Any]:
        return {k: v for k, v in (("soc", self.soc), ("vector_core_cnt", self.core_num), ("ub_size", self.ub_size))
                if v is not None}


def _block(src: str, open_brace: int) -> str:
    depth = 0
    for i in range(open_brace, len(src)):
        if src[i] == "{":
            depth += 1
        elif src[i] == "}":
            depth -= 1
            if depth == 0:
                return src[open_brace + 1:i]
    return src[open_brace + 1:]


def field_name(expr: str) -> str:
    """`tiling.blockLength` → blockLength, `ctx->GetBlockDim()` → blockDim, `GetTilingKey()` → tilingKey."""
    expr = expr.strip()
    m = re.search(r"Get(\w+)\s*\(\s*\)\s*$", expr)
    if m:
        name = m.group(1)
        return name[0].lower() + name[1:]
    m = re.search(r"(\w+)\s*(?:\[\s*\d+\s*\])?\s*$", expr)
    return m.group(1) if m else expr


def _literal(v: str) -> Any:
    v = v.strip().rstrip("uUlLfF") if re.fullmatch(r"-?[\d.]+[uUlLfF]*", v.strip()) else v.strip()
    try:
        return int(v)
    except ValueError:
        try:
            return float(v)
        except ValueError:
            return v.strip('"')


def mine_scenarios(src: str) -> list[Scenario]:
    out = []
    for m in _TEST.finditer(src):
        body = _block(src, m.end() - 1)
        body_nc = re.sub(r"//[^\n]*|/\*.*?\*/", " ", body, flags=re.DOTALL)
        sc = Scenario(name=f"{m.group(1)}.{m.group(2)}")
        sc.dtypes = [(a or b).lower() for a, b in _DTYPE.findall(body_nc)]
        dims = [origin for origin, _ in _STORAGE_SHAPE.findall(body_nc)] or _SHAPE.findall(body_nc)
        sc.shapes = [[int(x) for x in d.replace(" ", "").split(",") if x] for d in dims]
        if (c := _CORES.search(body_nc)):
            sc.core_num = int(c.group(1))
        if (u := _UB.search(body_nc)):
            sc.ub_size = int(u.group(1))
        if (s := _SOC.search(body_nc)):
            sc.soc = s.group(1)
        for lhs, rhs in _EXPECT.findall(body_nc):
            # gtest convention is EXPECT_EQ(actual, expected), but both orders occur: the literal is the value.
            if re.fullmatch(r"-?[\d.]+[uUlLfF]*|\"[^\"]*\"", rhs.strip()):
                sc.expected[field_name(lhs)] = _literal(rhs)
            elif re.fullmatch(r"-?[\d.]+[uUlLfF]*|\"[^\"]*\"", lhs.strip()):
                sc.expected[field_name(rhs)] = _literal(lhs)
        out.append(sc)
    return out


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
                if isinstance(v, (dict, list)):
                    walk(v)
                else:
                    flat[str(k)] = v
    walk(summary or {})
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


def run_project(ctx: StageContext, sources) -> list[CoTRecord]:
    st = ctx.stage_stats("project")
    mark = ctx.teacher_mark()
    records: list[CoTRecord] = []
    for src in sources:
        repo = Path(src.local_path)
        resolver = IncludeResolver(repo, [repo / r for r in getattr(src, "include_roots", [])])
        items = []
        for op in find_projects(repo):
            rel = op.root.relative_to(repo).as_posix()
            if ctx.decontam is not None:
                hit = ctx.decontam.check_names([op.name, *(p.stem for p in op.kernel_files)])
                if hit:
                    n = max(1, sum(len(mine_scenarios(t.read_text(errors="replace"))) for t in op.tiling_tests))
                    st.inputs += n
                    st.drop("decontam:" + hit.reason, n, item=rel)
                    ctx.decontam.report("project", f"{src.uri}:{rel}", hit)
                    continue
            scenarios = [s for t in op.tiling_tests for s in mine_scenarios(t.read_text(errors="replace"))]
            if not scenarios:
                scenarios = [Scenario(name="default")]
                st.extra["ops_without_tiling_tests"] = st.extra.get("ops_without_tiling_tests", 0) + 1
            host = "\n\n".join(f"// ===== {p.relative_to(repo).as_posix()} =====\n{p.read_text(errors='replace')}"
                               for p in op.host_files)
            snippets = [resolver.resolve(k) for k in op.kernel_files]
            if any(not s.self_contained for s in snippets):
                st.inputs += len(scenarios)
                st.drop("unresolved_include", len(scenarios), item=rel)
                continue
            kernel = "\n".join(s.text for s in snippets)
            if ctx.decontam is not None:
                hit = ctx.decontam.check_code(kernel, path=rel)
                if hit:
                    st.inputs += len(scenarios)
                    st.drop("decontam:" + hit.reason, len(scenarios), item=rel)
                    ctx.decontam.report("project", f"{src.uri}:{rel}", hit)
                    continue
            for sc in scenarios:
                key = f"{rel}|{sc.name}"
                if not ctx.mine(f"project:{src.uri}:{key}"):
                    continue
                st.inputs += 1
                items.append((key, op, rel, sc, host, kernel, snippets))
        reps = ctx.teacher.ask([TeacherRequest(key=key, messages=prompts.project_reasoning(op.name, host, kernel,
                                                                                           sc.test_case(), sc.hardware()),
                                               accept=lambda r: bool(r.content.strip() or r.reasoning.strip()))
                                for key, op, rel, sc, host, kernel, _ in items])
        agree = 0
        for key, op, rel, sc, host, kernel, snippets in items:
            rep = reps.get(key)
            if not ctx.keep_reply(rep, st, item=key):
                continue
            reasoning = rep.reasoning.strip() or extract_tag(rep.content, "think") or rep.content.strip()
            check = check_tiling(extract_json_object(rep.content), sc.expected)
            agree += check["status"] == "agree"
            summary = {"op": op.name, "scenario": sc.name, **sc.test_case(), **sc.hardware(), "tiling": sc.expected}
            answer = (f"Host tiling:\n```cpp\n{host}\n```\n\nKernel:\n```cpp\n{kernel}\n```\n\n"
                      f"Tiling summary:\n```json\n{json.dumps(summary, ensure_ascii=False, indent=1)}\n```")
            records.append(CoTRecord(
                kind="project", source=src.uri, prompt=prompts.project_question(op.name, sc.test_case(), sc.hardware()),
                reasoning=reasoning, answer=answer, lang="en", licence=ctx.options.licence,
                provenance={"op_dir": rel, "host": [p.relative_to(repo).as_posix() for p in op.host_files],
                            "kernel": [s.path for s in snippets], "tests": [p.relative_to(repo).as_posix()
                                                                             for p in op.tiling_tests],
                            "commit": src.commit},
                teacher={"reasoning": rep.provenance(), "prompt_version": prompts.PROMPT_VERSION},
                meta={"scenario": summary, "tiling_check": check}))
        st.extra["tiling_agree"] = st.extra.get("tiling_agree", 0) + agree
    st.outputs += len(records)
    ctx.count_teacher(st, mark)
    return records
